package trv

import (
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commands maps Traccar command types to the IW protocol's server
// commands (Protocol for GPS Watch V1.0): each is
// "<maker>BPxx,<imei>,<journal>[,<value>]#".
var commands = map[string]string{
	"positionSingle": "BP16", // locate now
	"factoryReset":   "BP17",
	"rebootDevice":   "BP18",
	"powerOff":       "BP31",
}

// maxInterval bounds positionPeriodic: the upload interval is in seconds,
// at most a day.
const maxInterval = 24 * 60 * 60

// CommandTypes implements protocols.Stream.
func (p *Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commands, "positionPeriodic")
}

// Encode implements protocols.Stream. The journal number, which the
// device echoes when it carried the command out, is the time of day
// (hhmmss, UTC). custom sends attributes.data as the whole message, with
// the closing '#' added when it lacks one.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if c == nil || !validID(c.UniqueID) {
		return nil, model.Invalid("trv: device id unknown")
	}
	maker := "IW"
	if s, ok := c.State.(session); ok {
		maker = s.maker
	}
	head := func(typ string) string {
		return fmt.Sprintf("%s%s,%s,%s", maker, typ, c.UniqueID, p.now.Now().Format("150405"))
	}
	var msg string
	switch cmd.Type {
	case "custom":
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		if strings.Contains(strings.TrimSuffix(data, "#"), "#") {
			return nil, model.Invalid("trv: custom command must be one message")
		}
		msg = strings.TrimSuffix(data, "#")
	case "positionPeriodic":
		n, err := protocols.IntAttribute(cmd, "frequency")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > maxInterval {
			return nil, model.Invalid("trv: frequency %d s out of range 1..%d", n, maxInterval)
		}
		msg = fmt.Sprintf("%s,%d", head("BP15"), n)
	default:
		typ, err := protocols.CommandText(cmd, commands)
		if err != nil {
			return nil, err
		}
		msg = head(typ)
	}
	return []byte(msg + "#"), nil
}
