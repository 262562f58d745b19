package tk103

import (
	"fmt"
	"math"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commands maps Traccar command types to the body after the device id;
// positionPeriodic and outputControl are built separately; custom sends
// attributes.data.
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
	return protocols.CommandTypes(commands, "positionPeriodic", "outputControl")
}

// Encode implements protocols.Stream: `(<id><body>)`.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if c == nil || !validID(c.UniqueID) {
		return nil, model.Invalid("tk103: device id unknown")
	}
	var body string
	var err error
	switch cmd.Type {
	case "outputControl":
		body, err = protocols.CommandData(cmd)
		body = "AV00" + body
	case "positionPeriodic":
		body, err = periodic(cmd)
	default:
		body, err = protocols.CommandText(cmd, commands)
	}
	if err != nil {
		return nil, err
	}
	return []byte("(" + c.UniqueID + body + ")"), nil
}

// periodic builds the body of positionPeriodic: attributes.frequency, the
// interval in seconds, as 4 hex digits (the device field holds 16 bits),
// then a 0000 duration (no limit).
func periodic(cmd *model.Command) (string, error) {
	n, err := protocols.IntAttribute(cmd, "frequency")
	if err != nil {
		return "", err
	}
	if n < 1 || n > math.MaxUint16 {
		return "", model.Invalid("tk103: frequency %d s out of range", n)
	}
	return fmt.Sprintf("AR00%04X0000", n), nil
}
