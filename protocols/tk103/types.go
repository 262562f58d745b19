package tk103

import (
	"github.com/fleetd/fleetd/app/model"
)

// alarmCodes are the BO01 alarm digits.
var alarmCodes = map[byte]string{
	'0': "powerCut", // "vehicle power off" in the protocol document
	'1': "accident",
	'2': "sos",
	'3': "vibration", // the vehicle's anti-theft alarm went off
	'4': "lowspeed",
	'5': "overspeed",
	'6': "geofenceExit",
}

// bq81Alarms are the BQ81 `,ALARM,<kind>,` values.
var bq81Alarms = map[string]string{
	"0": "lowBattery",
	"1": "overspeed",
	"2": "idle",
	"3": "hardAcceleration",
	"4": "hardBraking",
	"5": "temperature",
}

// typeAlarms are the alarms the comma-form types (ZCxx and the DWxx
// aliases of other firmware) stand for.
var typeAlarms = map[string]string{
	"ZC11": "movement", "DW31": "movement", "DW51": "movement",
	"ZC12": "lowBattery", "DW32": "lowBattery", "DW52": "lowBattery",
	"ZC13": "powerCut", "DW33": "powerCut", "DW53": "powerCut",
	"ZC17": "removing", "DW37": "removing", "DW57": "removing",
	"ZC25": "sos", "DW3E": "sos", "DW5E": "sos",
	"ZC26": "tampering", "DW3F": "tampering", "DW5F": "tampering",
	"ZC27": "lowPower", "DW40": "lowPower", "DW60": "lowPower",
}

// typeIgnition are the types that report an ignition change.
var typeIgnition = map[string]bool{
	"ZC15": true, "DW35": true, "DW55": true,
	"ZC29": true, "DW42": true, "DW62": true,
	"ZC16": false, "DW36": false, "DW56": false,
}

// applyType records what the frame type and its data say.
func applyType(attrs model.Attributes, typ, data string) {
	alarm := typeAlarms[typ]
	switch typ {
	case "BO01", "BO02":
		if data != "" {
			alarm = alarmCodes[data[0]]
		}
	case "BQ81":
		alarm = bq81Alarms[data]
	}
	if alarm != "" {
		attrs["alarm"] = alarm
	}
	if on, ok := typeIgnition[typ]; ok {
		attrs["ignition"] = on
	}
}
