package gps103

import "strings"

// Attribute keys and alarm values, spelled as Traccar stores them.
const (
	keyAlarm    = "alarm"
	keyEvent    = "event"
	keyIgnition = "ignition"
	keyDoor     = "door"
	keyFuel     = "fuel"
	keyDriver   = "driverUniqueId"
	keyTemp1    = "temp1"
	keyFuel1    = "fuel1"
	keyFuel2    = "fuel2"

	keyOdometer        = "odometer" // meters
	keyHours           = "hours"    // milliseconds
	keyOBDSpeed        = "obdSpeed" // km/h
	keyRPM             = "rpm"
	keyCoolantTemp     = "coolantTemp"
	keyFuelConsumption = "fuelConsumption"
	keyEngineLoad      = "engineLoad" // percent
	keyThrottle        = "throttle"   // percent
	keyBattery         = "battery"    // volts
	keyDTCs            = "dtcs"

	keyRSSI          = "rssi"
	keySatellites    = "sat"
	keyHDOP          = "hdop"
	keyCharge        = "charge"
	keySensorID      = "sensorId"
	keySensorVoltage = "sensorVoltage"
	keyError         = "error"
)

// alarms maps the frame keyword to Traccar's alarm name.
var alarms = map[string]string{
	"help me":         "sos",
	"low battery":     "lowBattery",
	"stockade":        "geofence",
	"move":            "movement",
	"speed":           "overspeed",
	"door alarm":      "door",
	"ac alarm":        "powerCut",
	"accident alarm":  "accident",
	"sensor alarm":    "vibration",
	"bonnet alarm":    "bonnet",
	"footbrake alarm": "footBrake",
	"DTC":             "fault",
}

// alarmOf returns the alarm a keyword raises, or "".
func alarmOf(keyword string) string {
	switch {
	case strings.HasPrefix(keyword, "T:"):
		return "temperature"
	case strings.HasPrefix(keyword, "oil"):
		return "fuelLeak"
	}
	return alarms[keyword]
}
