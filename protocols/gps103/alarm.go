package gps103

import "strings"

// Attribute keys and alarm values, spelled as Traccar stores them.
const (
	keyAlarm     = "alarm"
	keyEvent     = "event"
	keyIgnition  = "ignition"
	keyDoor      = "door"
	keyFuelLevel = "fuelLevel"
	keyDriver    = "driverUniqueId"
	keyTemp1     = "temp1"
	keyFuel1     = "fuel1"
	keyFuel2     = "fuel2"
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
