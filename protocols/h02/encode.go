package h02

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// command is a supported Traccar command type with its H02 instruction and
// fixed parameters.
type command struct {
	typ    string
	params []string
}

// commands: "S20,1,1" cuts the fuel line, "SCF,0,0" arms the alarm;
// positionPeriodic is followed by the frequency; custom is sent verbatim.
var commands = []command{
	{"alarmArm", []string{"SCF", "0", "0"}},
	{"alarmDisarm", []string{"SCF", "1", "1"}},
	{"engineStop", []string{"S20", "1", "1"}},
	{"engineResume", []string{"S20", "1", "0"}},
	{"positionPeriodic", []string{"S71", "22"}},
	{"custom", nil},
}

// CommandTypes lists the Traccar command types Encode supports.
func (p *Protocol) CommandTypes() []string {
	types := make([]string, len(commands))
	for i, c := range commands {
		types[i] = c.typ
	}
	return types
}

func lookup(typ string) (command, bool) {
	for _, c := range commands {
		if c.typ == typ {
			return c, true
		}
	}
	return command{}, false
}

// Encode builds "*HQ,<id>,<instruction>,<hhmmss UTC>,<params>#"; "custom"
// sends attributes["data"] as is.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	command, ok := lookup(cmd.Type)
	if !ok {
		return nil, model.Invalid("h02 does not support command %q", cmd.Type)
	}
	if cmd.Type == "custom" {
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		return []byte(data), nil
	}
	if c == nil || c.UniqueID == "" {
		return nil, model.Invalid("h02 command needs the device id")
	}
	params := command.params
	if cmd.Type == "positionPeriodic" {
		freq, err := protocols.IntAttribute(cmd, "frequency")
		if err != nil {
			return nil, err
		}
		if freq < 1 || freq >= 1e9 {
			return nil, model.Invalid("frequency must be a positive number of seconds, got %d", freq)
		}
		params = append(params[:len(params):len(params)], strconv.Itoa(freq))
	}
	out := []byte("*HQ," + c.UniqueID + "," + params[0] + "," + p.now.Now().Format("150405"))
	for _, v := range params[1:] {
		out = append(out, ',')
		out = append(out, v...)
	}
	return append(out, '#'), nil
}
