package teltonika

import (
	"fmt"
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

// IO elements with a well-known meaning get Traccar's attribute names; every
// other element is kept as "io<ID>" with its raw integer value.
//
//	ID       attribute        value
//	1..4     in1..in4         digital input, bool
//	9, 10    adc1, adc2       analog input, mV -> V
//	16       odometer         total odometer, meters
//	21       rssi             GSM signal level 0-5
//	50, 51   out3, out4       digital output, bool
//	66       power            external voltage, mV -> V
//	67       battery          battery voltage, mV -> V
//	69       gpsStatus        GNSS status (0 off, 1 on with fix, 2 on no fix, 3 sleep)
//	72..74   temp1..temp3     Dallas temperature, 0.1 degC, signed
//	78       driverUniqueId   iButton id, 16 hex digits (omitted when 0)
//	179, 180 out1, out2       digital output, bool
//	181      pdop             x 0.1
//	182      hdop             x 0.1
//	199      tripOdometer     meters
//	236      alarm            "general" when 1
//	239      ignition         bool
//	240      motion           bool
//	241      operator         GSM operator code (MCC and MNC digits)
//	253      alarm            green driving: 1 hardAcceleration, 2 hardBraking, 3 hardCornering
//
// The record's event IO id is stored as "event", its priority as "priority"
// and the satellite count as "sat". IO 205 (cell id) and 206 (LAC) stay as
// io205/io206 and also fill Position.Network when IO 241 gives the operator.
var ioElements = map[int]ioElement{
	1: {"in1", asBool}, 2: {"in2", asBool}, 3: {"in3", asBool}, 4: {"in4", asBool},
	9: {"adc1", asMilli}, 10: {"adc2", asMilli},
	16:  {"odometer", asInt},
	21:  {"rssi", asInt},
	50:  {"out3", asBool},
	51:  {"out4", asBool},
	66:  {"power", asMilli},
	67:  {"battery", asMilli},
	69:  {"gpsStatus", asInt},
	72:  {"temp1", asSignedTenth},
	73:  {"temp2", asSignedTenth},
	74:  {"temp3", asSignedTenth},
	78:  {"driverUniqueId", asDriverID},
	179: {"out1", asBool},
	180: {"out2", asBool},
	181: {"pdop", asTenth},
	182: {"hdop", asTenth},
	199: {"tripOdometer", asInt},
	236: {"alarm", alarmOn("general")},
	239: {"ignition", asBool},
	240: {"motion", asBool},
	241: {"operator", asInt},
	253: {"alarm", greenDriving},
}

type ioElement struct {
	name string
	// convert returns the attribute value, or nil to set nothing.
	convert func(v uint64, width int) any
}

func asBool(v uint64, _ int) any  { return v != 0 }
func asInt(v uint64, _ int) any   { return int64(v) }
func asMilli(v uint64, _ int) any { return float64(v) / 1000 }
func asTenth(v uint64, _ int) any { return float64(v) / 10 }

func asSignedTenth(v uint64, width int) any {
	shift := 64 - 8*width
	return float64(int64(v<<shift)>>shift) / 10
}

func asDriverID(v uint64, _ int) any {
	if v == 0 {
		return nil
	}
	return fmt.Sprintf("%016X", v)
}

func alarmOn(alarm string) func(uint64, int) any {
	return func(v uint64, _ int) any {
		if v == 1 {
			return alarm
		}
		return nil
	}
}

var greenDrivingAlarms = map[uint64]string{1: "hardAcceleration", 2: "hardBraking", 3: "hardCornering"}

func greenDriving(v uint64, _ int) any {
	if alarm, ok := greenDrivingAlarms[v]; ok {
		return alarm
	}
	return nil
}

// setIO stores one fixed-width IO element on p.
func setIO(p *model.Position, id int, v uint64, width int) {
	el, ok := ioElements[id]
	if !ok {
		p.Attributes["io"+strconv.Itoa(id)] = int64(v)
		return
	}
	if value := el.convert(v, width); value != nil {
		p.Attributes[el.name] = value
	}
}

// setNetwork fills p.Network from IO 205/206 and the operator code (IO 241,
// e.g. 24601 = MCC 246, MNC 01).
func setNetwork(p *model.Position) {
	cid, _ := p.Attributes["io205"].(int64)
	lac, _ := p.Attributes["io206"].(int64)
	operator, _ := p.Attributes["operator"].(int64)
	if cid == 0 || lac == 0 || operator < 1000 {
		return
	}
	code := strconv.FormatInt(operator, 10)
	mcc, _ := strconv.Atoi(code[:3])
	mnc, _ := strconv.Atoi(code[3:])
	p.Network = map[string]any{
		"radioType":  "gsm",
		"considerIp": false,
		"cellTowers": []map[string]any{{
			"mobileCountryCode": mcc,
			"mobileNetworkCode": mnc,
			"locationAreaCode":  int(lac),
			"cellId":            cid,
		}},
	}
}
