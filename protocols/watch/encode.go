package watch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// command is a supported Traccar command type: the content format and the
// attributes that fill it.
type command struct {
	typ    string
	format string
	keys   []string
}

var commands = []command{
	{"custom", "%s", []string{"data"}},
	{"positionSingle", "CR", nil},
	{"positionPeriodic", "UPLOAD,%s", []string{"frequency"}},
	{"sosNumber", "SOS%s,%s", []string{"index", "phone"}},
	{"alarmSos", "SOSSMS,%s", []string{"enable"}},
	{"alarmBattery", "LOWBAT,%s", []string{"enable"}},
	{"alarmRemove", "REMOVE,%s", []string{"enable"}},
	{"silenceTime", "SILENCETIME,%s", []string{"data"}},
	{"alarmClock", "REMIND,%s", []string{"data"}},
	{"setPhonebook", "PHB,%s", []string{"data"}},
	{"setIndicator", "FLOWER,%s", []string{"data"}},
	{"message", "MESSAGE,%s", []string{"message"}},
	{"rebootDevice", "RESET", nil},
	{"powerOff", "POWEROFF", nil},
}

// defaultMaker is used before the device has sent a frame (Traccar's choice).
const defaultMaker = "CS"

// CommandTypes lists the Traccar command types Encode supports.
func (p *Protocol) CommandTypes() []string {
	types := make([]string, len(commands))
	for i, c := range commands {
		types[i] = c.typ
	}
	return types
}

// Encode frames a command with the maker code (and index field) the device
// used on this connection.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	var command *command
	for i := range commands {
		if commands[i].typ == cmd.Type {
			command = &commands[i]
		}
	}
	if command == nil {
		return nil, model.Invalid("watch does not support command %q", cmd.Type)
	}
	if c == nil || c.UniqueID == "" {
		return nil, model.Invalid("watch command needs the device id")
	}
	args := make([]any, len(command.keys))
	for i, key := range command.keys {
		v, ok := attribute(cmd.Attributes, key)
		if !ok {
			return nil, model.Invalid("command %s needs attributes.%s", cmd.Type, key)
		}
		args[i] = v
	}
	content := fmt.Sprintf(command.format, args...)
	if strings.ContainsAny(content, "[]") || len(content) > 0xFFFF {
		return nil, model.Invalid("watch command content must be shorter than 64 KiB, without brackets")
	}
	maker, index := defaultMaker, ""
	if s, _ := c.State.(*session); s != nil {
		if s.maker != "" {
			maker = s.maker
		}
		if s.hasIndex {
			index = "0001"
		}
	}
	return frame(maker, c.UniqueID, index, content), nil
}

// attribute formats a command attribute the way the watch expects: whole
// numbers without a fraction, booleans as 1/0, messages as UTF-16BE hex.
func attribute(attrs model.Attributes, key string) (string, bool) {
	switch v := attrs[key].(type) {
	case string:
		if key == "message" {
			var b strings.Builder
			for _, u := range utf16.Encode([]rune(v)) {
				fmt.Fprintf(&b, "%04x", u)
			}
			return b.String(), v != ""
		}
		return v, v != ""
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10), true
		}
		return strconv.FormatFloat(v, 'f', -1, 64), !math.IsNaN(v) && !math.IsInf(v, 0)
	case int:
		return strconv.Itoa(v), true
	case bool:
		if v {
			return "1", true
		}
		return "0", true
	}
	return "", false
}
