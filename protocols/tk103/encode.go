package tk103

import (
	"fmt"
	"math"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

// commands maps Traccar command types to the body after the device id;
// positionPeriodic, outputControl and custom are built separately.
var commands = map[string]string{
	"positionSingle": "AP00",
	"positionStop":   "AR0000000000",
	"engineStop":     "AV010",
	"engineResume":   "AV011",
	"getVersion":     "AP07",
	"rebootDevice":   "AT00",
	"setOdometer":    "AX01",
}

// CommandTypes implements protocols.Stream.
func (p *Protocol) CommandTypes() []string {
	return []string{"custom", "positionSingle", "positionPeriodic", "positionStop", "engineStop",
		"engineResume", "outputControl", "getVersion", "rebootDevice", "setOdometer"}
}

// Encode implements protocols.Stream: `(<id><body>)`.
func (p *Protocol) Encode(c *protocols.Conn, cmd *app.Command) ([]byte, error) {
	if c == nil || !validID(c.UniqueID) {
		return nil, app.Invalid("tk103: device id unknown")
	}
	var body string
	switch cmd.Type {
	case "custom", "outputControl":
		data, ok := cmd.Attributes["data"].(string)
		if !ok || data == "" {
			return nil, app.Invalid("tk103: %s command needs attributes.data", cmd.Type)
		}
		if cmd.Type == "outputControl" {
			data = "AV00" + data
		}
		body = data
	case "positionPeriodic":
		interval, err := frequency(cmd.Attributes["frequency"])
		if err != nil {
			return nil, err
		}
		// Interval in seconds as 4 hex digits, then a 0000 duration (no limit).
		body = fmt.Sprintf("AR00%04X0000", interval)
	default:
		var ok bool
		if body, ok = commands[cmd.Type]; !ok {
			return nil, app.Invalid("tk103: unsupported command %q", cmd.Type)
		}
	}
	return []byte("(" + c.UniqueID + body + ")"), nil
}

// frequency reads the interval in seconds; the device field holds 16 bits.
func frequency(v any) (int64, error) {
	var s float64
	switch x := v.(type) {
	case float64:
		s = x
	case int:
		s = float64(x)
	case int64:
		s = float64(x)
	default:
		return 0, app.Invalid("tk103: positionPeriodic needs a numeric attributes.frequency")
	}
	if s < 1 || s > math.MaxUint16 || s != math.Trunc(s) {
		return 0, app.Invalid("tk103: frequency %v s out of range", v)
	}
	return int64(s), nil
}
