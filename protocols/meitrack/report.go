package meitrack

import (
	"errors"

	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Fields of a text report (AAA; AFF has one more field first).
const (
	fEvent = iota
	fLat
	fLon
	fTime
	fValid
	fSats
	fRSSI
	fSpeed
	fCourse
	fHDOP
	fAltitude
	fOdometer
	fRuntime
	fCell
	fIO
	fAnalog
	fEventData // the fields below are optional
	fReserved
	fProtocol
	fFuel
	fTemps
	fCount
	fData
)

var errReport = errors.New("meitrack: malformed report")

// alarms maps event codes to Traccar's alarm names (event codes in the
// protocol document's annex).
var alarms = map[int]string{
	1: "sos", 17: "lowBattery", 18: "lowPower", 19: "overspeed", 20: "geofenceEnter",
	21: "geofenceExit", 22: "powerRestored", 23: "powerCut", 36: "tow", 44: "jamming",
	78: "accident", 90: "hardCornering", 91: "hardCornering", 129: "hardBraking",
	130: "hardAcceleration", 135: "fatigueDriving",
}

// eventDriver is the event code whose event data is a driver's card.
const eventDriver = 37

// decodeReport reads an AAA or AFF report: event, location, time, GPS and
// GSM state, cell, I/O and analog values, then optional fields that
// depend on the firmware (event data, fuel, temperatures, data fields).
func decodeReport(data, deviceModel string) (*model.Position, error) {
	f := splitFields(data)
	// AFF (and some AAA firmware) put a record number before the event.
	if len(f) > fLat+1 && !strings.Contains(f[fLat], ".") && strings.Contains(f[fLat+1], ".") {
		f = f[1:]
	}
	if len(f) <= fAnalog {
		return nil, errReport
	}
	p := newPosition()
	event, err := strconv.Atoi(f[fEvent])
	if err != nil {
		return nil, errReport
	}
	p.Attributes["event"] = event
	if alarm := alarms[event]; alarm != "" {
		p.Attributes["alarm"] = alarm
	}
	t, err := time.Parse("060102150405", f[fTime])
	if err != nil || (f[fValid] != "A" && f[fValid] != "V") {
		return nil, errReport
	}
	setTime(p, t)
	p.Valid = f[fValid] == "A"
	var rssi int
	nums := []struct {
		s   string
		dst *float64
	}{{f[fLat], &p.Latitude}, {f[fLon], &p.Longitude}, {f[fSpeed], &p.Speed}, {f[fCourse], &p.Course}, {f[fAltitude], &p.Altitude}}
	for _, n := range nums {
		if *n.dst, err = strconv.ParseFloat(n.s, 64); err != nil {
			return nil, errReport
		}
	}
	p.Speed *= kphToKnots
	sats, err1 := strconv.Atoi(f[fSats])
	rssi, err2 := strconv.Atoi(f[fRSSI])
	hdop, err3 := strconv.ParseFloat(f[fHDOP], 64)
	odometer, err4 := strconv.ParseInt(f[fOdometer], 10, 64)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return nil, errReport
	}
	p.Attributes["sat"], p.Attributes["hdop"], p.Attributes["odometer"] = sats, hdop, odometer
	p.Attributes["runtime"] = f[fRuntime]
	if err := setCell(p, f[fCell], rssi); err != nil {
		return nil, err
	}
	if len(f[fIO]) != 4 {
		return nil, errReport
	}
	in, err1 := strconv.ParseUint(f[fIO][:2], 16, 8)
	out, err2 := strconv.ParseUint(f[fIO][2:], 16, 8)
	if err1 != nil || err2 != nil {
		return nil, errReport
	}
	p.Attributes["input"], p.Attributes["output"] = int(in), int(out)
	if err := setAnalog(p, f[fAnalog], deviceModel); err != nil {
		return nil, err
	}
	setOptional(p, event, f)
	if err := protocols.CheckFix(p); err != nil {
		return nil, err
	}
	return p, nil
}

// setCell reads "mcc|mnc|lac|cid" (LAC and cell id in hex, either may be
// empty); a cell with a zero MCC or MNC is no cell.
func setCell(p *model.Position, s string, rssi int) error {
	c := strings.Split(s, "|")
	if len(c) != 4 {
		return errReport
	}
	mcc, err1 := strconv.Atoi(c[0])
	mnc, err2 := strconv.Atoi(c[1])
	lac, err3 := hexOrZero(c[2])
	cid, err4 := hexOrZero(c[3])
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return errReport
	}
	if mcc != 0 && mnc != 0 {
		p.Network = network(cellTower(mcc, mnc, lac, cid, rssi))
	}
	return nil
}

func hexOrZero(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.ParseInt(s, 16, 64)
}

// setAnalog reads the analog field: "battery|power|rtc|mcu|gps" in volts
// on newer firmware, else "adc1|adc2|adc3|battery|power" as hex ADC
// counts, scaled by the device model's reference voltage and divider.
func setAnalog(p *model.Position, s, deviceModel string) error {
	a := strings.Split(s, "|")
	if len(a) != 5 {
		return errReport
	}
	if strings.Contains(a[0], ".") {
		battery, err1 := strconv.ParseFloat(a[0], 64)
		power, err2 := strconv.ParseFloat(a[1], 64)
		if err1 != nil || err2 != nil {
			return errReport
		}
		p.Attributes["battery"], p.Attributes["power"] = battery, power
		return nil
	}
	var v [5]int64
	for i, x := range a {
		if x == "" {
			v[i] = -1
			continue
		}
		n, err := strconv.ParseInt(x, 16, 32)
		if err != nil {
			return errReport
		}
		v[i] = n
	}
	for i := range 3 {
		if v[i] >= 0 {
			p.Attributes["adc"+strconv.Itoa(i+1)] = int(v[i])
		}
	}
	battery, power := scales(deviceModel)
	if v[3] >= 0 {
		p.Attributes["battery"] = battery(v[3])
	}
	if v[4] >= 0 {
		p.Attributes["power"] = power(v[4])
	}
	return nil
}

// scales returns the conversions of battery and power ADC counts to volts
// for a device model (MEITRACK GPRS protocol, analog input annex).
func scales(deviceModel string) (battery, power func(int64) float64) {
	volts := func(ref, div, full float64) func(int64) float64 {
		return func(n int64) float64 { return float64(n) * ref * div / full }
	}
	raw := func(n int64) float64 { return float64(n) }
	switch strings.ToUpper(deviceModel) {
	case "MVT340", "MVT380":
		return volts(3, 2, 1024), volts(3, 16, 1024)
	case "MT90":
		return volts(3.3, 2, 4096), raw
	case "MT90G":
		return volts(3, 2, 4096), raw
	case "T1", "T3", "MVT100", "MVT600", "MVT800", "TC68", "TC68S":
		return volts(3.3, 2, 4096), volts(3.3, 16, 4096)
	}
	return volts(1, 1, 100), volts(1, 1, 100)
}

// setOptional reads the fields after the analog values, where present:
// event data (a driver card for event 37), the protocol version, fuel
// ("hhdd": whole and hundredths of a percent), temperature sensors and
// the data fields (taximeter).
func setOptional(p *model.Position, event int, f []string) {
	at := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	if d := at(fEventData); d != "" {
		if event == eventDriver {
			p.Attributes["driverUniqueId"] = d
		} else {
			p.Attributes["eventData"] = d
		}
	}
	version, _ := strconv.Atoi(at(fProtocol))
	if fuel := at(fFuel); len(fuel) == 4 {
		whole, err1 := strconv.ParseUint(fuel[:2], 16, 8)
		frac, err2 := strconv.ParseUint(fuel[2:], 16, 8)
		if err1 == nil && err2 == nil {
			p.Attributes["fuel"] = float64(whole) + float64(frac)/100
		}
	}
	if temps := at(fTemps); temps != "" {
		for _, t := range strings.Split(temps, "|") {
			setTemperature(p, t, version)
		}
	}
	if len(f) > fData {
		setDataFields(p, f[fData:])
	}
}

// setTemperature reads one sensor "iivvvv": index, then from protocol
// version 3 a signed value in hundredths of a degree, before it a signed
// whole degree byte and a hundredths byte.
func setTemperature(p *model.Position, s string, version int) {
	if len(s) != 6 {
		return
	}
	index, err1 := strconv.ParseUint(s[:2], 16, 8)
	v, err2 := strconv.ParseUint(s[2:], 16, 16)
	if err1 != nil || err2 != nil {
		return
	}
	var value float64
	if version >= 3 {
		value = float64(int16(v)) / 100
	} else {
		whole := float64(int8(v >> 8))
		hundredths := float64(v&0xff) / 100
		if whole < 0 {
			hundredths = -hundredths
		}
		value = whole + hundredths
	}
	p.Attributes["temp"+strconv.FormatUint(index, 10)] = value
}

// setDataFields reads the data fields: the second is temperature data, the
// sixth the taximeter "<state>|<start>[|<end>|<distance>|<fare>|<trip>|<wait>]".
func setDataFields(p *model.Position, values []string) {
	if len(values) > 1 && values[1] != "" {
		p.Attributes["tempData"] = values[1]
	}
	if len(values) <= 5 || values[5] == "" {
		return
	}
	d := strings.Split(values[5], "|")
	if len(d) < 2 || len(d[0]) < 2 {
		return
	}
	p.Attributes["taximeterOn"] = d[0][1] == '0'
	p.Attributes["taximeterStart"] = d[1]
	if len(d) >= 7 {
		distance, err1 := strconv.Atoi(d[3])
		fare, err2 := strconv.Atoi(d[4])
		if err1 != nil || err2 != nil {
			return
		}
		p.Attributes["taximeterEnd"] = d[2]
		p.Attributes["taximeterDistance"], p.Attributes["taximeterFare"] = distance, fare
		p.Attributes["taximeterTrip"], p.Attributes["taximeterWait"] = d[5], d[6]
	}
}

// cellTower and network are shaped like Traccar's CellTower and Network.
func cellTower(mcc, mnc int, lac, cid int64, rssi int) map[string]any {
	return map[string]any{
		"mobileCountryCode": mcc, "mobileNetworkCode": mnc,
		"locationAreaCode": lac, "cellId": cid, "signalStrength": rssi,
	}
}

func network(towers ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
}
