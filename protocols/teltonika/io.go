package teltonika

import (
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// IO elements with a well-known meaning get Traccar's attribute names; every
// other element is kept as "io<ID>" with its raw integer value. Some ids mean
// different things on different device families, so, as in Traccar, part of
// the table applies only to the FMB family (FMB/FMC/FMM/FMT... and MTB100,
// MSP500), or only to the FM6 family (FMB640, FMC650...). A device whose
// model is not set is taken for the FMB family (but not FM6), the one
// current Teltonika trackers belong to.
//
//	ID           attribute            value                                  family
//	1..4         in1..in4             digital input, bool                    all
//	9, 10        adc1, adc2           analog input, mV -> V                  FMB
//	11           iccid                SIM ICCID, decimal text                FMB
//	12           fuelUsed             l, x 0.001                             FMB
//	13           fuelConsumption      l/h, x 0.01                            FMB
//	16           odometer             total odometer, meters                 all
//	17..19       axisX..axisZ         accelerometer, signed                  all
//	21           rssi                 GSM signal level 0-5                   all
//	24           (speed)              GNSS speed km/h, sets Position.Speed   FMB
//	25..28       bleTemp1..bleTemp4   BLE sensor temperature, x 0.01 degC    all
//	30           faultCount           OBD DTC count                          FMB
//	31           engineLoad           %                                      FMB
//	32           coolantTemp          degC, signed                           FMB
//	36           rpm                  engine rpm                             FMB
//	43           milDistance          km with the MIL on                     FMB
//	50, 51       out3, out4           digital output, bool                   all
//	57           hybridBatteryLevel   %, signed                              FMB
//	66           power                external voltage, mV -> V              all
//	67           battery              battery voltage, mV -> V               all
//	68           batteryCurrent       mA -> A                                FMB
//	69           gpsStatus            GNSS status (0 off, 1 fix, 2 no fix, 3 sleep)  all
//	72..75       temp1..temp4         Dallas temperature, 0.1 degC, signed   FMB
//	78           driverUniqueId       iButton id, 16 hex digits, sent LSB first (omitted when 0)  all
//	80           dataMode             0 home on stop ... 5 unknown           FMB, not FM6
//	81           obdSpeed             km/h                                   FMB, not FM6
//	82           throttle             accelerator pedal %                    FMB, not FM6
//	83           fuelUsed             l, x 0.1                               FMB, not FM6
//	84           fuel                 l, x 0.1                               FMB, not FM6
//	85           rpm                  engine rpm                             FMB, not FM6
//	87           obdOdometer          meters                                 FMB, not FM6
//	89           fuelLevel            %                                      FMB, not FM6
//	107          fuelUsed             l, x 0.1                               FMB
//	110          fuelConsumption      l/h, x 0.1                             FMB
//	113          batteryLevel         %                                      FMB
//	115          engineTemp           degC, x 0.1, signed                    FMB
//	175          alarm                geofenceEnter (1) / geofenceExit (0)   FMB
//	179, 180     out1, out2           digital output, bool                   all
//	181          pdop                 x 0.1                                  all
//	182          hdop                 x 0.1                                  all
//	195, 196     driverUniqueId       16 ASCII characters in two values      FM6
//	199          tripOdometer         meters                                 all
//	200          sleepMode            0 none, 1 GPS sleep, 2 deep sleep...   FMB
//	236          alarm                general                                all
//	239          ignition             bool                                   all
//	240          motion               bool                                   all
//	241          operator             GSM operator code (MCC and MNC digits) all
//	246          alarm                tow                                    FMB
//	247          alarm                accident (crash detection)             FMB
//	249          alarm                jamming                                FMB
//	251          alarm                idle                                   FMB
//	252          alarm                powerCut (unplug)                      FMB
//	253          alarm                1 hardAcceleration, 2 hardBraking, 3 hardCornering  all
//	389          obdOdometer          km -> meters                           FMB003
//	662          door                 bool                                   FMB
//	701..704     bleTemp1..bleTemp4   x 0.1 degC, signed                     FM6
//	10644..10649 tempProbe1..6        x 0.01 degC, signed                    FMB
//	10800..10803 eyeTemp1..eyeTemp4   EYE sensor temperature, x 0.01 degC    FMB
//	10832..10835 eyeRoll1..eyeRoll4   EYE sensor roll, degrees, signed       FMB
//
// Several alarms in one record are comma-joined, as Traccar does. The
// record's event IO id is stored as "event", its priority as "priority" and
// the satellite count as "sat". IO 205 (GSM cell id), 636 (LTE cell id) and
// 206 (LAC) stay as io205/io636/io206 and also fill Position.Network when
// IO 241 gives the operator. The variable-length elements of codec 8E are
// decoded in variable.go.
var ioElements = map[int]ioElement{
	1: {all, named("in1", asBool)}, 2: {all, named("in2", asBool)},
	3: {all, named("in3", asBool)}, 4: {all, named("in4", asBool)},
	9: {fmb, named("adc1", scaled(1000))}, 10: {fmb, named("adc2", scaled(1000))},
	11: {fmb, named("iccid", asDecimal)},
	12: {fmb, named("fuelUsed", scaled(1000))},
	13: {fmb, named("fuelConsumption", scaled(100))},
	16: {all, named("odometer", asInt)},
	17: {all, named("axisX", asSigned)}, 18: {all, named("axisY", asSigned)}, 19: {all, named("axisZ", asSigned)},
	21: {all, named("rssi", asInt)},
	24: {fmb, setSpeed},
	25: {all, named("bleTemp1", signedScaled(100))}, 26: {all, named("bleTemp2", signedScaled(100))},
	27: {all, named("bleTemp3", signedScaled(100))}, 28: {all, named("bleTemp4", signedScaled(100))},
	30:  {fmb, named("faultCount", asInt)},
	31:  {fmb, named("engineLoad", asInt)},
	32:  {fmb, named("coolantTemp", asSigned)},
	36:  {fmb, named("rpm", asInt)},
	43:  {fmb, named("milDistance", asInt)},
	50:  {all, named("out3", asBool)},
	51:  {all, named("out4", asBool)},
	57:  {fmb, named("hybridBatteryLevel", asSigned)},
	66:  {all, named("power", scaled(1000))},
	67:  {all, named("battery", scaled(1000))},
	68:  {fmb, named("batteryCurrent", scaled(1000))},
	69:  {all, named("gpsStatus", asInt)},
	72:  {fmb, named("temp1", signedScaled(10))},
	73:  {fmb, named("temp2", signedScaled(10))},
	74:  {fmb, named("temp3", signedScaled(10))},
	75:  {fmb, named("temp4", signedScaled(10))},
	78:  {all, named("driverUniqueId", asDriverID)},
	80:  {fmbNot6, named("dataMode", asInt)},
	81:  {fmbNot6, named("obdSpeed", asInt)},
	82:  {fmbNot6, named("throttle", asInt)},
	83:  {fmbNot6, named("fuelUsed", scaled(10))},
	84:  {fmbNot6, named("fuel", scaled(10))},
	85:  {fmbNot6, named("rpm", asInt)},
	87:  {fmbNot6, named("obdOdometer", asInt)},
	89:  {fmbNot6, named("fuelLevel", asInt)},
	107: {fmb, named("fuelUsed", scaled(10))},
	110: {fmb, named("fuelConsumption", scaled(10))},
	113: {fmb, named("batteryLevel", asInt)},
	115: {fmb, named("engineTemp", signedScaled(10))},
	175: {fmb, geofenceAlarm},
	179: {all, named("out1", asBool)},
	180: {all, named("out2", asBool)},
	181: {all, named("pdop", scaled(10))},
	182: {all, named("hdop", scaled(10))},
	199: {all, named("tripOdometer", asInt)},
	200: {fmb, named("sleepMode", asInt)},
	236: {all, alarmOn("general")},
	239: {all, named("ignition", asBool)},
	240: {all, named("motion", asBool)},
	241: {all, named("operator", asInt)},
	246: {fmb, alarmOn("tow")},
	247: {fmb, alarmOn("accident")},
	249: {fmb, alarmOn("jamming")},
	251: {fmb, alarmOn("idle")},
	252: {fmb, alarmOn("powerCut")},
	253: {all, greenDriving},
	389: {fmb003, named("obdOdometer", func(v uint64, _ int) any { return int64(v) * 1000 })},
	662: {fmb, named("door", asBool)},
	701: {fm6, named("bleTemp1", signedScaled(10))}, 702: {fm6, named("bleTemp2", signedScaled(10))},
	703: {fm6, named("bleTemp3", signedScaled(10))}, 704: {fm6, named("bleTemp4", signedScaled(10))},
	10644: {fmb, named("tempProbe1", signedScaled(100))}, 10645: {fmb, named("tempProbe2", signedScaled(100))},
	10646: {fmb, named("tempProbe3", signedScaled(100))}, 10647: {fmb, named("tempProbe4", signedScaled(100))},
	10648: {fmb, named("tempProbe5", signedScaled(100))}, 10649: {fmb, named("tempProbe6", signedScaled(100))},
	10800: {fmb, named("eyeTemp1", signedScaled(100))}, 10801: {fmb, named("eyeTemp2", signedScaled(100))},
	10802: {fmb, named("eyeTemp3", signedScaled(100))}, 10803: {fmb, named("eyeTemp4", signedScaled(100))},
	10832: {fmb, named("eyeRoll1", asSigned)}, 10833: {fmb, named("eyeRoll2", asSigned)},
	10834: {fmb, named("eyeRoll3", asSigned)}, 10835: {fmb, named("eyeRoll4", asSigned)},
}

// family says which device models an IO element's meaning applies to.
type family uint8

const (
	all     family = iota
	fmb            // FMB family, or model not set
	fmbNot6        // FMB family but not FM6
	fm6            // FM6 family only
	fmb003         // the FMB003 OBD dongle only
)

// Traccar's model patterns, matched against the whole model name.
var (
	fmbPattern = regexp.MustCompile(`^(FM[B-Z]...|MTB100|MSP500)$`)
	fm6Pattern = regexp.MustCompile(`^FM.6..$`)
)

// models is what the operator-set device model says about the IO table.
type models struct {
	fmb, fm6, fmb003 bool
}

// modelsOf classifies Conn.Model (case and spaces ignored).
func modelsOf(model string) models {
	m := strings.ToUpper(strings.TrimSpace(model))
	if m == "" {
		return models{fmb: true}
	}
	return models{fmb: fmbPattern.MatchString(m), fm6: fm6Pattern.MatchString(m), fmb003: m == "FMB003"}
}

func (f family) appliesTo(m models) bool {
	switch f {
	case fmb:
		return m.fmb
	case fmbNot6:
		return m.fmb && !m.fm6
	case fm6:
		return m.fm6
	case fmb003:
		return m.fmb003
	}
	return true
}

type ioElement struct {
	family family
	set    func(p *model.Position, v uint64, width int)
}

// named stores convert's value under name; a nil value sets nothing.
func named(name string, convert func(v uint64, width int) any) func(*model.Position, uint64, int) {
	return func(p *model.Position, v uint64, width int) {
		if value := convert(v, width); value != nil {
			p.Attributes[name] = value
		}
	}
}

// signed reads v, an element of width bytes, as two's complement.
func signed(v uint64, width int) int64 {
	shift := 64 - 8*width
	return int64(v<<shift) >> shift
}

func asBool(v uint64, _ int) any        { return v != 0 }
func asInt(v uint64, _ int) any         { return int64(v) }
func asSigned(v uint64, width int) any  { return signed(v, width) }
func asDecimal(v uint64, width int) any { return strconv.FormatInt(signed(v, width), 10) }
func scaled(div float64) func(uint64, int) any {
	return func(v uint64, _ int) any { return float64(v) / div }
}

func signedScaled(div float64) func(uint64, int) any {
	return func(v uint64, width int) any { return float64(signed(v, width)) / div }
}

// asDriverID formats the iButton id, which devices send least significant
// byte first (Traccar reads it little-endian).
func asDriverID(v uint64, width int) any {
	if v == 0 {
		return nil
	}
	return fmt.Sprintf("%0*X", 2*width, bits.ReverseBytes64(v)>>(64-8*width))
}

// IO 24 is the GNSS speed in km/h; Traccar lets it replace the record's.
func setSpeed(p *model.Position, v uint64, _ int) { p.Speed = float64(v) * kphToKnots }

func alarmOn(alarm string) func(*model.Position, uint64, int) {
	return func(p *model.Position, v uint64, _ int) {
		if v != 0 {
			addAlarm(p, alarm)
		}
	}
}

func geofenceAlarm(p *model.Position, v uint64, _ int) {
	if v != 0 {
		addAlarm(p, "geofenceEnter")
	} else {
		addAlarm(p, "geofenceExit")
	}
}

var greenDrivingAlarms = map[uint64]string{1: "hardAcceleration", 2: "hardBraking", 3: "hardCornering"}

func greenDriving(p *model.Position, v uint64, _ int) { addAlarm(p, greenDrivingAlarms[v]) }

// addAlarm appends an alarm the way Traccar does: several are comma-joined.
func addAlarm(p *model.Position, alarm string) {
	if alarm == "" {
		return
	}
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}

// setIO stores one fixed-width IO element on p.
func setIO(p *model.Position, m models, id int, v uint64, width int) {
	el, ok := ioElements[id]
	if !ok || !el.family.appliesTo(m) {
		p.Attributes["io"+strconv.Itoa(id)] = int64(v)
		return
	}
	el.set(p, v, width)
}

// finishIO derives what needs several elements: the FM6 driver id from IO
// 195 and 196 (16 ASCII characters, most significant first) and the
// serving cell.
func finishIO(p *model.Position, m models) {
	if m.fm6 {
		hi, okHi := p.Attributes["io195"].(int64)
		lo, okLo := p.Attributes["io196"].(int64)
		if okHi && okLo {
			b := make([]byte, 0, 16)
			for _, v := range []int64{hi, lo} {
				for shift := 56; shift >= 0; shift -= 8 {
					b = append(b, byte(v>>shift))
				}
			}
			p.Attributes["driverUniqueId"] = string(b)
		}
	}
	setNetwork(p)
}

// setNetwork fills p.Network from the cell id (IO 205 for GSM, IO 636 for
// LTE), the LAC (IO 206) and the operator code (IO 241, e.g. 24601 = MCC
// 246, MNC 01).
func setNetwork(p *model.Position) {
	lac, _ := p.Attributes["io206"].(int64)
	operator, _ := p.Attributes["operator"].(int64)
	radio := "gsm"
	cid, _ := p.Attributes["io205"].(int64)
	if cid == 0 {
		cid, _ = p.Attributes["io636"].(int64)
		radio = "lte"
	}
	if cid == 0 || lac == 0 || operator < 1000 {
		return
	}
	tower := map[string]any{"locationAreaCode": int(lac), "cellId": cid}
	setOperator(tower, operator)
	p.Network = map[string]any{
		"radioType":  radio,
		"considerIp": false,
		"cellTowers": []map[string]any{tower},
	}
}

// setOperator splits an operator code into MCC (first three digits) and
// MNC (the rest); codes under 1000 carry no MNC and are left out.
func setOperator(tower map[string]any, operator int64) {
	if operator < 1000 {
		return
	}
	code := strconv.FormatInt(operator, 10)
	mcc, _ := strconv.Atoi(code[:3])
	mnc, _ := strconv.Atoi(code[3:])
	tower["mobileCountryCode"] = mcc
	tower["mobileNetworkCode"] = mnc
}
