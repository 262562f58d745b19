package suntech

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// CommandTypes lists the Traccar command types Encode supports.
func (p *Protocol) CommandTypes() []string {
	return []string{"custom", "alarmArm", "alarmDisarm", "engineStop", "engineResume", "outputControl", "positionSingle", "rebootDevice"}
}

// legacyActions are the legacy command ids: "<prefix>CMD;<id>;02;<action>".
var legacyActions = map[string]string{
	"rebootDevice": "Reboot", "positionSingle": "StatusReq", "engineStop": "Enable1",
	"engineResume": "Disable1", "alarmArm": "Enable2", "alarmDisarm": "Disable2",
}

// universalActions are the universal firmware's "CMD;<id>;<group>;<action>".
var universalActions = map[string]string{
	"rebootDevice": "03;03", "positionSingle": "03;01", "engineStop": "04;01",
	"engineResume": "04;02", "alarmArm": "04;03", "alarmDisarm": "04;04",
}

// universalOutputs are the universal "04;<action>" codes to turn outputs
// 1 to 3 on and off.
var universalOutputs = map[int][2]string{1: {"01", "02"}, 2: {"03", "04"}, 3: {"09", "10"}}

// Encode builds a command in the form the device's reports use (Traccar's
// encoder): universal "CMD;<id>;03;03\r", legacy "ST300CMD;<id>;02;Reboot\r"
// with the model prefix of its last report ("SA200" before any);
// outputControl takes attributes index and data ("1" on, else off).
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd == nil {
		return nil, model.Invalid("no command")
	}
	if cmd.Type == "custom" {
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		return []byte(data), nil
	}
	if _, ok := legacyActions[cmd.Type]; !ok && cmd.Type != "outputControl" {
		return nil, model.Invalid("suntech does not support command %q", cmd.Type)
	}
	if c == nil || c.UniqueID == "" {
		return nil, model.Invalid("suntech command needs the device id")
	}
	s, _ := c.State.(*session)
	universal := s != nil && s.universal
	prefix := "SA200"
	if s != nil && s.prefix != "" {
		prefix = s.prefix
	}
	action := legacyActions[cmd.Type]
	if universal {
		action = universalActions[cmd.Type]
	}
	if cmd.Type == "outputControl" {
		index, err := protocols.IntAttribute(cmd, "index")
		if err != nil {
			return nil, err
		}
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		on := data == "1"
		if universal {
			codes, ok := universalOutputs[index]
			if !ok {
				return nil, model.Invalid("suntech universal outputs are 1 to 3, got %d", index)
			}
			action = "04;" + codes[0]
			if !on {
				action = "04;" + codes[1]
			}
		} else {
			if index < 1 || index > 9 {
				return nil, model.Invalid("suntech outputs are 1 to 9, got %d", index)
			}
			action = "Disable" + strconv.Itoa(index)
			if on {
				action = "Enable" + strconv.Itoa(index)
			}
		}
	}
	if universal {
		return []byte("CMD;" + c.UniqueID + ";" + action + "\r"), nil
	}
	return []byte(prefix + "CMD;" + c.UniqueID + ";02;" + action + "\r"), nil
}
