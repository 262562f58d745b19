package gl200

import (
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commands are the AT command bodies after the password, as Traccar's
// encoder sends them; the serial number is always FFFF. GTRTO sub-commands:
// 1 a position now, 3 reboot, 8 the firmware version; GTOUT drives output 1
// (the relay of an engine cut).
var commands = map[string]string{
	"positionSingle": "AT+GTRTO=%s,1,,,,,,FFFF$",
	"engineStop":     "AT+GTOUT=%s,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$",
	"engineResume":   "AT+GTOUT=%s,0,,,0,0,0,0,0,0,0,,,,,,,FFFF$",
	"identification": "AT+GTRTO=%s,8,,,,,,FFFF$",
	"rebootDevice":   "AT+GTRTO=%s,3,,,,,,FFFF$",
}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string { return protocols.CommandTypes(commands) }

// Encode implements protocols.Stream. The device password goes in
// attributes.devicePassword (empty by default, as Traccar sends it when
// the device has none set); custom sends attributes.data as it is.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	text, err := protocols.CommandText(cmd, commands)
	if err != nil {
		return nil, err
	}
	if cmd.Type == "custom" {
		return []byte(text), nil
	}
	password := ""
	if v, ok := cmd.Attributes["devicePassword"]; ok {
		s, isString := v.(string)
		if !isString || strings.ContainsAny(s, ",$\r\n") {
			return nil, model.Invalid("gl200: devicePassword must be text without ',' or '$'")
		}
		password = s
	}
	return fmt.Appendf(nil, text, password), nil
}
