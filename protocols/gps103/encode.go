package gps103

import (
	"fmt"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commands maps Traccar command types to the code after `**,imei:<id>,`.
// positionPeriodic is built separately; custom sends attributes.data.
var commands = map[string]string{
	"positionStop":   "D", // "A" only suppresses reports while parked
	"positionSingle": "B",
	"engineStop":     "J",
	"engineResume":   "K",
	"alarmArm":       "L",
	"alarmDisarm":    "M",
	"requestPhoto":   "160",
}

// CommandTypes implements protocols.Stream.
func (p *Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commands, "positionPeriodic")
}

// Encode implements protocols.Stream: `**,imei:<id>,<code>` with no
// terminator, as Coban devices and Traccar use it.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if c == nil || !allDigits(c.UniqueID) {
		return nil, model.Invalid("gps103: device IMEI unknown")
	}
	prefix := "**,imei:" + c.UniqueID + ","
	if cmd.Type == "positionPeriodic" {
		f, err := frequency(cmd)
		if err != nil {
			return nil, err
		}
		return []byte(prefix + "C," + f), nil
	}
	code, err := protocols.CommandText(cmd, commands)
	if err != nil {
		return nil, err
	}
	return []byte(prefix + code), nil
}

// frequency renders attributes.frequency, an interval in seconds, in the
// device's units: whole hours ("01h"), else whole minutes ("05m"), else
// seconds ("30s").
func frequency(cmd *model.Command) (string, error) {
	n, err := protocols.IntAttribute(cmd, "frequency")
	if err != nil {
		return "", err
	}
	if n < 1 || n > 99*3600 {
		return "", model.Invalid("gps103: frequency %d s out of range", n)
	}
	switch {
	case n >= 3600:
		return fmt.Sprintf("%02dh", n/3600), nil
	case n >= 60:
		return fmt.Sprintf("%02dm", n/60), nil
	}
	return fmt.Sprintf("%02ds", n), nil
}
