package meiligao

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

var errPosition = errors.New("meiligao: malformed position data")

// alarmNames map the alarm byte of 0x9999 frames to Traccar's alarms;
// TK218 units number some alarms their own way.
var (
	alarmNames = map[byte]string{
		0x01: "sos", 0x10: "lowBattery", 0x11: "overspeed", 0x12: "movement", 0x13: "geofenceEnter",
		0x14: "accident", 0x50: "powerOff", 0x53: "gpsAntennaCut", 0x72: "hardBraking", 0x73: "hardAcceleration",
	}
	alarmNamesTK218 = map[byte]string{
		0x01: "sos", 0x10: "lowBattery", 0x11: "overspeed", 0x12: "movement", 0x13: "geofence",
		0x60: "fatigueDriving", 0x71: "hardBraking", 0x72: "hardAcceleration", 0x73: "accident", 0x74: "idle",
	}
)

// decodeReport reads a position (0x9955), a logged position (0x9016,
// after 6 bytes), an alarm (0x9999, after its alarm byte) or a position
// taken with a picture (0x9977, after image index and upload type).
func decodeReport(f frame, deviceModel string) (*model.Position, error) {
	data := f.data
	skip := map[int]int{cmdPositionLogged: 6, cmdAlarm: 1, cmdPositionImage: 2}[f.cmd]
	if len(data) < skip {
		return nil, errPosition
	}
	p := newPosition()
	if f.cmd == cmdAlarm {
		code := data[0]
		names := alarmNames
		if deviceModel == "TK218" {
			names = alarmNamesTK218
		}
		if name := names[code]; name != "" {
			p.Attributes["alarm"] = name
		}
	}
	if err := decodeSentence(p, string(data[skip:])); err != nil {
		return nil, err
	}
	// Inputs 2-5 going active (0x02-0x05) or inactive (0x32-0x35): the
	// alarm says which changed, over the state word's bits.
	if code := data[0]; f.cmd == cmdAlarm && code >= 0x02 && code <= 0x05 {
		p.Attributes["in"+strconv.Itoa(int(code))] = 1
	} else if f.cmd == cmdAlarm && code >= 0x32 && code <= 0x35 {
		p.Attributes["in"+strconv.Itoa(int(code-0x30))] = 0
	}
	return p, nil
}

// decodeSentence reads the position text: a GPRMC-like part
// "hhmmss.sss,A,ddmm.mmmm,N,dddmm.mmmm,E,knots,course,ddmmyy,..." then
// "|"-separated values: HDOP, altitude, state (output bits 0-4, input
// bits 8-12), the ADC values, then either cell id, GSM signal, odometer
// (hex metres), satellites and a card, or an odometer (decimal metres) and
// an RFID tag. The values stop at the first one out of form.
func decodeSentence(p *model.Position, s string) error {
	parts := strings.Split(s, "|")
	f := strings.Split(parts[0], ",")
	if len(f) < 9 {
		return errPosition
	}
	clock, date := f[0], f[8]
	if i := strings.IndexByte(clock, '.'); i >= 0 {
		clock = clock[:i]
	}
	// Some firmware sends a one-digit hour.
	if len(clock) == 5 {
		clock = "0" + clock
	}
	if len(clock) != 6 || len(date) < 6 || !digits(clock) || !digits(date[:6]) {
		return errPosition
	}
	t, err := time.Parse("150405 020106", clock+" "+date[:6])
	if err != nil || (f[1] != "A" && f[1] != "V") {
		return errPosition
	}
	p.FixTime, p.DeviceTime, p.Valid = t, t, f[1] == "A"
	if p.Latitude, err = coordinate(f[2], f[3], "N", "S"); err != nil {
		return err
	}
	if p.Longitude, err = coordinate(f[4], f[5], "E", "W"); err != nil {
		return err
	}
	if f[6] != "" {
		if p.Speed, err = strconv.ParseFloat(f[6], 64); err != nil {
			return errPosition
		}
	}
	if f[7] != "" {
		if p.Course, err = strconv.ParseFloat(f[7], 64); err != nil {
			return errPosition
		}
	}
	setValues(p, parts[1:])
	return nil
}

// coordinate reads "dddmm.mmmm" with its hemisphere letter.
func coordinate(v, hemi, pos, neg string) (float64, error) {
	dot := strings.IndexByte(v, '.')
	if dot < 3 || !digits(v[:dot]) || (hemi != pos && hemi != neg) {
		return 0, errPosition
	}
	deg, err1 := strconv.Atoi(v[:dot-2])
	min, err2 := strconv.ParseFloat(v[dot-2:], 64)
	if err1 != nil || err2 != nil {
		return 0, errPosition
	}
	c := float64(deg) + min/60
	if hemi == neg {
		c = -c
	}
	return c, nil
}

var (
	hexWord  = regexp.MustCompile(`^[0-9A-Fa-f]{4}$`)
	hexByte  = regexp.MustCompile(`^[0-9A-Fa-f]{2}$`)
	hexLong  = regexp.MustCompile(`^[0-9A-Fa-f]{8}$`)
	cellID   = regexp.MustCompile(`^[0-9A-Fa-f]{16,20}$`)
	decimal  = regexp.MustCompile(`^[0-9]{1,9}$`)
	rfidTag  = regexp.MustCompile(`^[0-9A-Fa-f]{5,}`)
	hdopForm = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)
)

// setValues stores the "|"-separated values after the GPRMC part.
func setValues(p *model.Position, v []string) {
	at := func(i int) (string, bool) {
		if i < len(v) {
			return v[i], true
		}
		return "", false
	}
	if len(v) < 3 {
		return
	}
	if v[0] != "" {
		if !hdopForm.MatchString(v[0]) {
			return
		}
		p.Attributes["hdop"], _ = strconv.ParseFloat(v[0], 64)
	}
	if v[1] != "" {
		alt, err := strconv.ParseFloat(v[1], 64)
		if err != nil {
			return
		}
		p.Altitude = alt
	}
	if v[2] != "" {
		if !hexWord.MatchString(v[2]) {
			return
		}
		state, _ := strconv.ParseUint(v[2], 16, 16)
		for i := range 5 {
			p.Attributes["out"+strconv.Itoa(i+1)] = state&(1<<i) != 0
			p.Attributes["in"+strconv.Itoa(i+1)] = state&(1<<(i+8)) != 0
		}
	}
	adcs, ok := at(3)
	a := strings.Split(adcs, ",")
	if !ok || len(a) < 2 || len(a) > 8 {
		return
	}
	for _, x := range a {
		if !hexWord.MatchString(x) {
			return
		}
	}
	for i, x := range a {
		n, _ := strconv.ParseUint(x, 16, 16)
		p.Attributes["adc"+strconv.Itoa(i+1)] = int(n)
	}
	next, ok := at(4)
	switch {
	case ok && cellID.MatchString(next):
		rssi, ok1 := at(5)
		odo, ok2 := at(6)
		if !ok1 || !ok2 || !hexByte.MatchString(rssi) || !hexLong.MatchString(odo) {
			return
		}
		n, _ := strconv.ParseUint(rssi, 16, 8)
		m, _ := strconv.ParseUint(odo, 16, 32)
		p.Attributes["rssi"], p.Attributes["odometer"] = int(n), int64(m)
		if sats, ok := at(7); ok && hexByte.MatchString(sats) {
			n, _ := strconv.ParseUint(sats, 16, 8)
			p.Attributes["sat"] = int(n)
			if len(v) > 8 {
				p.Attributes["card"] = strings.Join(v[8:], "|")
			}
		}
	case ok && decimal.MatchString(next):
		n, _ := strconv.ParseInt(next, 10, 64)
		p.Attributes["odometer"] = n
		if tag, ok := at(5); ok && rfidTag.MatchString(tag) {
			p.Attributes["driverUniqueId"] = tag
		}
	}
}

func digits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// decodeRetransmission reads a batch of stored positions (0x6688): a
// count, then per position an alarm byte and the position text, the
// positions separated by '\'.
func decodeRetransmission(data []byte) ([]*model.Position, error) {
	if len(data) < 1 {
		return nil, errPosition
	}
	count := int(data[0])
	rest := data[1:]
	var out []*model.Position
	for range count {
		if len(rest) < 1 {
			break
		}
		rest = rest[1:] // alarm byte
		sentence := rest
		if i := bytes.IndexByte(rest, '\\'); i >= 0 {
			sentence, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		p := newPosition()
		if decodeSentence(p, string(sentence)) == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errPosition
	}
	return out, nil
}

// decodeRFID reads an RFID report (0x9966): 15 card numbers (4 bytes each,
// 0 when unused), then "|hhmmss,ddmmyy,ddmm.mmmm,N,dddmm.mmmm,E".
func decodeRFID(data []byte) (*model.Position, error) {
	const cards = 15
	if len(data) < cards*4 {
		return nil, errPosition
	}
	p := newPosition()
	for i := range cards {
		if n := binary.BigEndian.Uint32(data[i*4:]); n != 0 {
			card := fmt.Sprintf("%010d", n)
			p.Attributes["card"+strconv.Itoa(i+1)] = card
			p.Attributes["driverUniqueId"] = card
		}
	}
	s, ok := strings.CutPrefix(string(data[cards*4:]), "|")
	f := strings.Split(s, ",")
	if !ok || len(f) != 6 || len(f[0]) != 6 || len(f[1]) != 6 {
		return nil, errPosition
	}
	t, err := time.Parse("150405 020106", f[0]+" "+f[1])
	if err != nil {
		return nil, errPosition
	}
	p.FixTime, p.DeviceTime, p.Valid = t, t, true
	if p.Latitude, err = coordinate(f[2], f[3], "N", "S"); err != nil {
		return nil, err
	}
	if p.Longitude, err = coordinate(f[4], f[5], "E", "W"); err != nil {
		return nil, err
	}
	return p, nil
}

// obdFields name the values of OBD frames, in order: real-time data
// (0x9901) and averages (0x9902). Kind 'f' is a decimal, 'i' a whole number.
var obdFields = map[int][]struct {
	key  string
	kind byte
}{
	cmdOBD: {{"battery", 'f'}, {"rpm", 'i'}, {"obdSpeed", 'i'}, {"throttle", 'f'}, {"engineLoad", 'f'},
		{"coolantTemp", 'i'}, {"fuelConsumption", 'f'}, {"averageFuelConsumption", 'f'}, {"drivingRange", 'f'},
		{"odometer", 'f'}, {"singleFuelConsumption", 'f'}, {"fuelUsed", 'f'}, {"dtcs", 'i'},
		{"hardAccelerationCount", 'i'}, {"hardBrakingCount", 'i'}},
	cmdOBDAverage: {{"totalIgnitionNo", 'i'}, {"totalDrivingTime", 'f'}, {"totalIdlingTime", 'f'},
		{"averageHotStartTime", 'i'}, {"averageSpeed", 'i'}, {"historyHighestSpeed", 'i'},
		{"historyHighestRpm", 'i'}, {"totalHarshAccerleration", 'i'}, {"totalHarshBrake", 'i'}},
}

// decodeOBD stores the comma-separated values of an OBD frame on p.
func decodeOBD(p *model.Position, cmd int, s string) error {
	fields := obdFields[cmd]
	v := strings.Split(s, ",")
	if len(v) != len(fields) {
		return errPosition
	}
	for i, f := range fields {
		if f.kind == 'i' {
			n, err := strconv.Atoi(v[i])
			if err != nil {
				return errPosition
			}
			p.Attributes[f.key] = n
			continue
		}
		x, err := strconv.ParseFloat(v[i], 64)
		if err != nil {
			return errPosition
		}
		p.Attributes[f.key] = x
	}
	return nil
}
