package gps103

import (
	"fmt"
	"math"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

// commands maps Traccar command types to the code after `**,imei:<id>,`.
// positionPeriodic and custom are built separately.
var commands = map[string]string{
	"positionStop":   "A",
	"positionSingle": "B",
	"engineStop":     "J",
	"engineResume":   "K",
	"alarmArm":       "L",
	"alarmDisarm":    "M",
	"requestPhoto":   "160",
}

// CommandTypes implements protocols.Stream.
func (p *Protocol) CommandTypes() []string {
	return []string{"custom", "positionPeriodic", "positionSingle", "positionStop",
		"engineStop", "engineResume", "alarmArm", "alarmDisarm", "requestPhoto"}
}

// Encode implements protocols.Stream: `**,imei:<id>,<code>` with no
// terminator, as Coban devices and Traccar use it.
func (p *Protocol) Encode(c *protocols.Conn, cmd *app.Command) ([]byte, error) {
	if c == nil || !allDigits(c.UniqueID) {
		return nil, app.Invalid("gps103: device IMEI unknown")
	}
	prefix := "**,imei:" + c.UniqueID + ","
	switch cmd.Type {
	case "custom":
		data, ok := cmd.Attributes["data"].(string)
		if !ok || data == "" {
			return nil, app.Invalid("gps103: custom command needs attributes.data")
		}
		return []byte(prefix + data), nil
	case "positionPeriodic":
		f, err := frequency(cmd.Attributes["frequency"])
		if err != nil {
			return nil, err
		}
		return []byte(prefix + "C," + f), nil
	}
	if code, ok := commands[cmd.Type]; ok {
		return []byte(prefix + code), nil
	}
	return nil, app.Invalid("gps103: unsupported command %q", cmd.Type)
}

// frequency renders an interval in seconds in the device's units: whole
// hours ("01h"), else whole minutes ("05m"), else seconds ("30s").
func frequency(v any) (string, error) {
	var s float64
	switch x := v.(type) {
	case float64:
		s = x
	case int:
		s = float64(x)
	case int64:
		s = float64(x)
	default:
		return "", app.Invalid("gps103: positionPeriodic needs a numeric attributes.frequency")
	}
	if s < 1 || s != math.Trunc(s) || s > 99*3600 {
		return "", app.Invalid("gps103: frequency %v s out of range", v)
	}
	n := int64(s)
	switch {
	case n >= 3600:
		return fmt.Sprintf("%02dh", n/3600), nil
	case n >= 60:
		return fmt.Sprintf("%02dm", n/60), nil
	}
	return fmt.Sprintf("%02ds", n), nil
}
