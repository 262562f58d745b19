package eelink

import (
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// alarms maps the alarm byte of alarm (0x04) and warning (0x14) packets.
var alarms = map[int]string{
	0x01: "powerOff", 0x02: "sos", 0x03: "lowBattery", 0x04: "vibration",
	0x08: "gpsAntennaCut", 0x09: "gpsAntennaCut", 0x25: "removing",
	0x81: "lowSpeed", 0x82: "overspeed", 0x83: "geofenceEnter", 0x84: "geofenceExit",
	0x85: "accident", 0x86: "fallDown",
}

func setAlarm(p *model.Position, code int) {
	if a, ok := alarms[code]; ok {
		p.Attributes["alarm"] = a
	}
}

// oldLocationSize is the location of the 1.x packets.
const oldLocationSize = 4 + 4 + 4 + 1 + 2 + 2 + 2 + 2 + 3 + 1

// decodeOld reads a 1.x GPS, alarm, state or SMS packet: time, latitude,
// longitude, speed (km/h), course, MCC, MNC, LAC, cell id, a validity
// byte, then what the type adds.
func decodeOld(r *reader, pk packet) (*model.Position, error) {
	if r.left() < oldLocationSize {
		return nil, errShort
	}
	p := newPosition()
	p.Attributes["index"] = int(pk.serial)
	t, lat, lon := unixTime(r), degrees(r), degrees(r)
	if err := onGlobe(lat, lon); err != nil {
		return nil, err
	}
	speed, course := r.u8(), r.u16()
	tower := cellTower(r.u16(), r.u16(), r.u16(), r.u24())
	setFix(p, t, r.u8()&0x01 != 0, lat, lon)
	if !p.Outdated {
		p.Speed, p.Course = float64(speed)*kphToKnots, float64(course)
	}
	p.Network = protocols.Network([]map[string]any{tower}, nil)
	switch pk.typ {
	case msgGPS:
		if r.left() >= 2 {
			oldStatus(p, r.u16())
		}
		if r.left() >= 8 {
			p.Attributes["battery"] = float64(r.u16()) / 1000
			p.Attributes["rssi"] = r.u16()
			p.Attributes["adc1"] = r.u16()
			p.Attributes["adc2"] = r.u16()
		}
	case msgAlarm:
		setAlarm(p, r.u8())
	case msgState:
		event := r.u8()
		p.Attributes["event"] = event
		if event >= 1 && event <= 3 {
			r.u32() // the device time of the state change
			if r.left() >= 2 {
				oldStatus(p, r.u16())
			}
		}
	}
	return p, r.err
}

// oldStatus reads the 1.x status word: each state bit comes after a bit
// saying it is known; the oil/power relay bit is set when it is connected.
func oldStatus(p *model.Position, status int) {
	known := func(bit int) bool { return status&(1<<bit) != 0 }
	if known(1) {
		p.Attributes["ignition"] = known(2)
	}
	if known(3) {
		p.Attributes["armed"] = known(4)
	}
	if known(5) {
		p.Attributes["blocked"] = !known(6)
	}
	if known(7) {
		p.Attributes["charge"] = known(8)
	}
	p.Attributes["status"] = status
}

// statusPosition is a heartbeat's status word, without a location.
func statusPosition(status int) *model.Position {
	p := newPosition()
	p.Outdated = true
	oldStatus(p, status)
	return p
}

// decodeNew reads a 2.0 packet: time, a mask of the blocks that follow
// (bit 0 GPS, 1-3 cells, 4-6 Wi-Fi access points, 7 LTE cells), then for
// location, warning and report packets the alarm or report type, the
// status word and, for location packets, the sensor values present.
func decodeNew(r *reader, pk packet) (*model.Position, error) {
	p := newPosition()
	p.Attributes["index"] = int(pk.serial)
	t := unixTime(r)
	mask := r.u8()
	p.DeviceTime = t
	if mask&0x01 != 0 {
		p.FixTime, p.Latitude, p.Longitude = t, degrees(r), degrees(r)
		if err := onGlobe(p.Latitude, p.Longitude); err != nil {
			return nil, err
		}
		p.Altitude = float64(r.s16())
		p.Speed = float64(r.u16()) * kphToKnots
		p.Course = float64(r.u16())
		p.Attributes["sat"] = r.u8()
	} else {
		p.Outdated = true
	}
	p.Network = readNetwork(r, mask)
	switch pk.typ {
	case msgWarning:
		setAlarm(p, r.u8())
	case msgReport:
		r.u8() // report type
	}
	if pk.typ == msgNormal || pk.typ == msgWarning || pk.typ == msgReport {
		newStatus(p, r.u16())
	}
	if pk.typ == msgNormal {
		readSensors(r, p)
	}
	return p, r.err
}

// readNetwork reads the cell and access point blocks the mask announces.
func readNetwork(r *reader, mask int) map[string]any {
	var towers, aps []map[string]any
	mcc, mnc := 0, 0
	for bit := 1; bit <= 3; bit++ {
		if mask&(1<<bit) == 0 {
			continue
		}
		if bit == 1 {
			mcc, mnc = r.u16(), r.u16()
		}
		lac, cid := r.u16(), r.u32()
		tower := cellTower(mcc, mnc, lac, cid)
		tower["signalStrength"] = r.u8()
		towers = append(towers, tower)
	}
	for bit := 4; bit <= 6; bit++ {
		if mask&(1<<bit) != 0 {
			mac := hex.EncodeToString(r.take(6))
			var b strings.Builder
			for i := 0; i < len(mac); i += 2 {
				if i > 0 {
					b.WriteByte(':')
				}
				b.WriteString(mac[i : i+2])
			}
			aps = append(aps, map[string]any{"macAddress": b.String(), "signalStrength": r.u8()})
		}
	}
	if mask&0x80 != 0 {
		r.u8() // radio access technology
		count := r.u8()
		lac := 0
		if count > 0 {
			mcc, mnc, lac = r.u16(), r.u16(), r.u16()
			r.take(2 + 4 + 2) // TAC, serving cell id, timing advance
		}
		for range count {
			tower := cellTower(mcc, mnc, lac, int64(r.u16())) // physical cell id
			r.u16()                                           // E-ARFCN
			tower["signalStrength"] = r.u8()
			towers = append(towers, tower)
		}
	}
	if len(towers) == 0 && len(aps) == 0 {
		return nil
	}
	return protocols.Network(towers, aps)
}

// newStatus reads the 2.0 status word: bit 0 a valid fix, then state bits
// each after a bit saying it is known, bit 10 GPS on.
func newStatus(p *model.Position, status int) {
	set := func(bit int) bool { return status&(1<<bit) != 0 }
	if !p.Outdated {
		p.Valid = set(0)
	}
	if set(1) {
		p.Attributes["ignition"] = set(2)
	}
	if set(3) {
		p.Attributes["armed"] = set(4)
		p.Attributes["motion"] = set(9)
	}
	if set(5) {
		p.Attributes["blocked"] = set(6)
	}
	if set(7) {
		p.Attributes["charge"] = set(8)
	}
	p.Attributes["gps"] = set(10)
	p.Attributes["status"] = status
}

// readSensors reads the optional tail of a location packet; each group is
// present when the packet is long enough to hold it.
func readSensors(r *reader, p *model.Position) {
	if r.left() >= 2 {
		p.Attributes["battery"] = float64(r.u16()) / 1000
	}
	if r.left() >= 4 {
		p.Attributes["adc0"] = r.u16()
		p.Attributes["adc1"] = r.u16()
	}
	if r.left() >= 4 {
		p.Attributes["odometer"] = r.u32()
	}
	if r.left() >= 4 {
		r.take(4) // GSM and GPS counters
	}
	if r.left() >= 4 {
		p.Attributes["steps"] = r.u16()
		r.u16() // walking time
	}
	if r.left() >= 12 {
		p.Attributes["temp1"] = float64(r.s16()) / 256
		p.Attributes["humidity"] = float64(r.u16()) / 10
		p.Attributes["illuminance"] = float64(r.u32()) / 256
		p.Attributes["co2"] = r.u32()
	}
	if r.left() >= 2 {
		p.Attributes["temp2"] = float64(r.s16()) / 16
	}
	if r.left() >= 2 {
		count := r.u8()
		r.u8() // tag block id
		for i := 1; i <= count && r.err == nil; i++ {
			tag := "tag" + strconv.Itoa(i)
			p.Attributes[tag+"Id"] = hex.EncodeToString(r.take(6))
			r.take(4) // signal level, reserved, model, version
			p.Attributes[tag+"Battery"] = float64(r.u16()) / 1000
			p.Attributes[tag+"Temp"] = float64(r.s16()) / 256
			p.Attributes[tag+"Data"] = r.u16()
		}
	}
}

// decodeOBD reads an OBD packet: time, then (PID, 32-bit value) pairs of
// which fuel consumption, odometer (km) and fuel level (0.1 units) are
// stored.
func decodeOBD(r *reader) (*model.Position, error) {
	p := newPosition()
	p.Outdated = true
	p.DeviceTime = unixTime(r)
	if r.left()%5 != 0 {
		return nil, errors.New("eelink: OBD data is not whole PID records")
	}
	for r.left() > 0 {
		pid, value := r.u8(), r.s32()
		switch pid {
		case 0x89:
			p.Attributes["fuelConsumption"] = value
		case 0x8A:
			p.Attributes["odometer"] = value * 1000
		case 0x8B:
			p.Attributes["fuel"] = value / 10
		}
	}
	return p, r.err
}

// located is the text of a WHERE# answer.
var located = regexp.MustCompile(`(?s)Lat:([NS])(\d+\.\d+).*Lon:([EW])(\d+\.\d+).*Course:(\d+\.\d+).*Speed:(\d+\.\d+).*Date ?Time:(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)`)

// decodeDownlink reads a device's answer to a command (0x80): a command
// type byte, the server's 4-byte id, then text. A location answer is a
// position; any other text is the command result.
func decodeDownlink(r *reader, pk packet) (*model.Position, string, error) {
	r.take(5)
	if r.err != nil {
		return nil, "", r.err
	}
	text := string(r.take(r.left()))
	m := located.FindStringSubmatch(text)
	if m == nil {
		return nil, text, nil
	}
	t, err := time.Parse(time.DateTime, m[7])
	if err != nil {
		return nil, text, nil
	}
	lat, _ := strconv.ParseFloat(m[2], 64)
	lon, _ := strconv.ParseFloat(m[4], 64)
	if m[1] == "S" {
		lat = -lat
	}
	if m[3] == "W" {
		lon = -lon
	}
	if err := onGlobe(lat, lon); err != nil {
		return nil, "", err
	}
	p := newPosition()
	p.Attributes["index"] = int(pk.serial)
	setFix(p, t, true, lat, lon)
	p.Course, _ = strconv.ParseFloat(m[5], 64)
	speed, _ := strconv.ParseFloat(m[6], 64)
	p.Speed = speed * kphToKnots
	return p, "", nil
}

// onGlobe refuses coordinates no fix can have (a corrupt packet).
func onGlobe(lat, lon float64) error {
	if lat > 90 || lat < -90 || lon > 180 || lon < -180 {
		return fmt.Errorf("eelink: location %v,%v off the globe", lat, lon)
	}
	return nil
}

func cellTower(mcc, mnc, lac int, cid int64) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}
