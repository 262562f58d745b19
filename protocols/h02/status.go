package h02

import (
	"github.com/fleetd/fleetd/app/model"
)

// Traccar alarm names set from the status word.
const (
	alarmVibration = "vibration"
	alarmSOS       = "sos"
	alarmOverspeed = "overspeed"
	alarmPowerCut  = "powerCut"
)

// setStatus records the 32-bit status word. Its bits are active low: a
// cleared bit raises the alarm. Bit 10 is the ignition (ACC) input, set when on.
func setStatus(pos *model.Position, status uint32) {
	clear := func(bit uint) bool { return status&(1<<bit) == 0 }
	switch {
	case clear(0):
		pos.Attributes["alarm"] = alarmVibration
	case clear(1) || clear(18):
		pos.Attributes["alarm"] = alarmSOS
	case clear(2):
		pos.Attributes["alarm"] = alarmOverspeed
	case clear(19):
		pos.Attributes["alarm"] = alarmPowerCut
	}
	pos.Attributes["ignition"] = !clear(10)
	pos.Attributes["status"] = int64(status)
}

// batteryLevel maps the binary frames' battery byte to a percentage: 1..6
// are coarse steps, 0xF1..0xF6 a newer coding, up to 100 a percentage.
func batteryLevel(v byte) (int, bool) {
	switch {
	case v == 0:
		return 0, false
	case v <= 3:
		return (int(v) - 1) * 10, true
	case v <= 6:
		return (int(v) - 1) * 20, true
	case v <= 100:
		return int(v), true
	case v >= 0xF1 && v <= 0xF6:
		return int(v) - 0xF0, true
	}
	return 0, false
}
