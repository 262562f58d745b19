package trv

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// knotsPerKph converts the devices' km/h to the knots positions hold.
const knotsPerKph = 1 / 1.852

// cursor reads the fixed-width fields of a position message.
type cursor struct {
	s   string
	at  int
	bad bool
}

// take returns the next n bytes, each accepted by ok.
func (c *cursor) take(n int, ok func(byte) bool) string {
	if c.bad || c.at+n > len(c.s) {
		c.bad = true
		return ""
	}
	v := c.s[c.at : c.at+n]
	for i := 0; i < n; i++ {
		if !ok(v[i]) {
			c.bad = true
			return ""
		}
	}
	c.at += n
	return v
}

// int reads n decimal digits.
func (c *cursor) int(n int) int {
	v, _ := strconv.Atoi(c.take(n, isDigit))
	return v
}

// float reads n bytes of digits and dots as a number.
func (c *cursor) float(n int) float64 {
	s := c.take(n, func(b byte) bool { return isDigit(b) || b == '.' })
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		c.bad = true
	}
	return v
}

// letter reads one byte that must be one of set.
func (c *cursor) letter(set string) byte {
	s := c.take(1, func(b byte) bool { return strings.IndexByte(set, b) >= 0 })
	if s == "" {
		return 0
	}
	return s[0]
}

// coordinate reads "<deg digits>mm.m+" and its hemisphere letter.
func (c *cursor) coordinate(degDigits int, hemispheres string) float64 {
	deg := c.int(degDigits)
	start := c.at
	for c.at < len(c.s) && (isDigit(c.s[c.at]) || c.s[c.at] == '.') {
		c.at++
	}
	minutes, err := strconv.ParseFloat(c.s[start:c.at], 64)
	if err != nil || c.at-start < 4 || c.s[start+2] != '.' || minutes >= 60 {
		c.bad = true
	}
	v := float64(deg) + minutes/60
	if c.letter(hemispheres) == hemispheres[1] {
		v = -v
	}
	return v
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// status reads the common status digits: GSM signal, satellites and
// battery (three digits each), ACC (one), arming and working mode (two
// each). Zero in ACC or arming means the device does not report it.
func (c *cursor) status(pos *model.Position) {
	pos.Attributes["rssi"] = c.int(3)
	pos.Attributes["sat"] = c.int(3)
	pos.Attributes["battery"] = c.int(3)
	setOptional(pos, "ignition", c.int(1), 1)
	setOptional(pos, "armed", c.int(2), 1)
	if mode := c.int(2); mode != 0 {
		pos.Attributes["mode"] = mode
	}
}

// setOptional sets key to whether v is on; 0 means not reported.
func setOptional(pos *model.Position, key string, v, on int) {
	if v != 0 {
		pos.Attributes[key] = v == on
	}
}

// alarms of the field after the cell (00 none).
var alarms = map[string]string{"01": "sos", "05": "fallDown", "06": "fallDown"}

// decodePosition reads AP01/AP10/YP03/YP14: date, validity, coordinates,
// speed (km/h), time, course and status packed without separators, up to
// five more digits, then ",mcc,mnc,lac,cid", an optional alarm code and,
// in AP10 and YP14, language, reply flag and Wi-Fi access points.
func (p *Protocol) decodePosition(values string) (*model.Position, error) {
	c := &cursor{s: values}
	date := c.take(6, isDigit)
	valid := c.letter("AV") == 'A'
	lat := c.coordinate(2, "NS")
	lon := c.coordinate(3, "EW")
	speed := c.float(5)
	clock := c.take(6, isDigit)
	course := c.float(6)
	pos := p.newPosition()
	c.status(pos)
	if c.bad {
		return nil, errFields
	}
	rest := c.s[c.at:]
	for i := 0; i < 5 && i < len(rest) && isDigit(rest[i]); i++ {
		c.at++
	}
	when, err := time.Parse("060102150405", date+clock)
	if err != nil || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return nil, errFields
	}
	f := strings.Split(c.s[c.at:], ",")
	if len(f) < 5 || f[0] != "" {
		return nil, errFields
	}
	var cell [4]int
	for i := range cell {
		if cell[i], err = strconv.Atoi(f[i+1]); err != nil || !isNumber(f[i+1]) {
			return nil, errFields
		}
	}
	pos.DeviceTime, pos.FixTime, pos.Valid = when, when, valid
	pos.Latitude, pos.Longitude = lat, lon
	pos.Speed, pos.Course = speed*knotsPerKph, course
	if a, ok := alarms[strings.Join(f[5:min(6, len(f))], "")]; ok {
		pos.Attributes["alarm"] = a
	}
	tower := cellTower(cell[0], cell[1], cell[2], cell[3])
	pos.Network = protocols.Network([]map[string]any{tower}, wifi(strings.Join(f[5:], ",")))
	return pos, nil
}

// isNumber accepts 1 to 10 decimal digits.
func isNumber(s string) bool {
	if len(s) == 0 || len(s) > 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func cellTower(mcc, mnc, lac, cid int) map[string]any {
	return map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
}

// wifi reads "name|mac|signal" entries joined by '&'. Names are free text
// (and fields before the list run into the first one), so an entry is
// read from its end: the last two parts are the MAC address, written with
// dashes, and the signal strength.
func wifi(s string) []map[string]any {
	var aps []map[string]any
	for _, entry := range strings.Split(s, "&") {
		parts := strings.Split(entry, "|")
		if len(parts) < 3 {
			continue
		}
		mac, signal := parts[len(parts)-2], parts[len(parts)-1]
		rssi, err := strconv.Atoi(signal)
		if err != nil || !isMAC(mac) {
			continue
		}
		aps = append(aps, map[string]any{"macAddress": strings.ReplaceAll(mac, "-", ":"), "signalStrength": rssi})
	}
	return aps
}

// isMAC accepts six hex pairs separated by dashes.
func isMAC(s string) bool {
	if len(s) != 17 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i%3 == 2 {
			if c != '-' {
				return false
			}
		} else if !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// decodeStatus reads CP01: the status digits and, when present, the
// interval, vibration and automatic arming settings, then blocked, charge
// and motion states.
func (p *Protocol) decodeStatus(values string) (*model.Position, error) {
	c := &cursor{s: strings.TrimPrefix(values, ",")}
	if len(c.s) == len(values) {
		return nil, errFields
	}
	pos := p.outdated()
	c.status(pos)
	if c.bad {
		return nil, errFields
	}
	if len(c.s)-c.at >= 15 && isNumber(c.s[c.at:c.at+10]) && isNumber(c.s[c.at+10:c.at+15]) {
		c.at += 12 // interval, vibration alarm and sensitivity, automatic arming and its time
		setOptional(pos, "blocked", c.int(1), 2)
		setOptional(pos, "charge", c.int(1), 1)
		setOptional(pos, "motion", c.int(1), 1)
	}
	return pos, nil
}

// decodeCells reads AP02: language, reply flag, cell count, MCC, MNC, the
// cells "lac|cid|rssi", the access point count and the access points.
func (p *Protocol) decodeCells(values string) (*model.Position, error) {
	f := strings.Split(strings.TrimPrefix(values, ","), ",")
	if len(f) < 6 || len(values) == 0 || values[0] != ',' {
		return nil, errFields
	}
	mcc, err1 := strconv.Atoi(f[3])
	mnc, err2 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil {
		return nil, errFields
	}
	var towers []map[string]any
	i := 5
	for ; i < len(f) && strings.Contains(f[i], "|"); i++ {
		cell := strings.Split(f[i], "|")
		if len(cell) != 3 || !isNumber(cell[0]) || !isNumber(cell[1]) {
			return nil, errFields
		}
		lac, _ := strconv.Atoi(cell[0])
		cid, _ := strconv.Atoi(cell[1])
		tower := cellTower(mcc, mnc, lac, cid)
		if rssi, err := strconv.Atoi(cell[2]); err == nil {
			tower["signalStrength"] = rssi
		}
		towers = append(towers, tower)
	}
	if i >= len(f) || !isNumber(f[i]) {
		return nil, errFields
	}
	pos := p.outdated()
	if n := protocols.Network(towers, wifi(strings.Join(f[i+1:], ","))); n != nil {
		pos.Network = n
	}
	return pos, nil
}

// decodeHeartbeat reads AP03: GSM signal, satellites, battery level,
// three more status fields, then steps and tumbles.
func (p *Protocol) decodeHeartbeat(values string) (*model.Position, error) {
	f := strings.Split(strings.TrimPrefix(values, ","), ",")
	if len(values) == 0 || values[0] != ',' || len(f) < 3 || len(f[0]) != 14 || !isNumber(f[1]) {
		return nil, errFields
	}
	c := &cursor{s: f[0]}
	pos := p.outdated()
	pos.Attributes["rssi"] = c.int(3)
	pos.Attributes["sat"] = c.int(3)
	pos.Attributes["batteryLevel"] = c.int(3)
	if c.take(1, isDigit); c.bad || !isNumber(f[0][12:]) {
		return nil, errFields
	}
	pos.Attributes["steps"], _ = strconv.Atoi(f[1])
	return pos, nil
}

// health lists the values of each health message, in order; floats are
// marked. A value the watch did not measure is left blank.
var health = map[string][]struct {
	key   string
	float bool
}{
	"AP49": {{"heartRate", false}},
	"APHT": {{"heartRate", false}, {"pressureSystolic", false}, {"pressureDiastolic", false}},
	"APHP": {{"heartRate", false}, {"pressureSystolic", false}, {"pressureDiastolic", false},
		{"spo2", false}, {"bloodSugar", true}, {"temperature", true}},
	"AP50": {{"temperature", true}, {"batteryLevel", false}},
}

// decodeHealth reads heart rate, blood pressure, SpO2, blood sugar and
// temperature measurements.
func (p *Protocol) decodeHealth(typ, values string) (*model.Position, error) {
	f := strings.Split(strings.TrimPrefix(values, ","), ",")
	if len(values) == 0 || values[0] != ',' {
		return nil, errFields
	}
	pos := p.outdated()
	for i, v := range health[typ] {
		if i >= len(f) || f[i] == "" {
			continue
		}
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil || x < 0 || x > 1e6 {
			return nil, errFields
		}
		if v.float {
			pos.Attributes[v.key] = x
		} else if x == float64(int(x)) {
			pos.Attributes[v.key] = int(x)
		} else {
			return nil, errFields
		}
	}
	if len(pos.Attributes) == 0 {
		return nil, errFields
	}
	return pos, nil
}
