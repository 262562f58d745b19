package jt600

import (
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/timezone"
	"github.com/fleetd/fleetd/protocols"
)

// commands are the JT600 text commands for Traccar's types: S07 drives
// the relay (0 cuts the engine), S17 restarts the device; setTimezone's
// S09 is built from the zone. A custom command's data is sent as it is.
var commands = map[string]string{
	"engineStop":   "(S07,0)",
	"engineResume": "(S07,1)",
	"rebootDevice": "(S17)",
}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commands, "setTimezone")
}

// Encode implements protocols.Stream.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd != nil && cmd.Type == "setTimezone" {
		minutes, err := zoneOffset(cmd)
		if err != nil {
			return nil, err
		}
		return fmt.Appendf(nil, "(S09,1,%d)", minutes), nil
	}
	text, err := protocols.CommandText(cmd, commands)
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}

// gmtOffset is a fixed zone written as Java's custom ids are: GMT+4,
// GMT-05:30, GMT+0530 (UTC alike).
var gmtOffset = regexp.MustCompile(`^(?:GMT|UTC)(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$`)

// zoneOffset is the standard (non-DST) offset in minutes of
// attributes.timezone, a GMT±hh[:mm] id or an IANA zone name, as Traccar
// sends it.
func zoneOffset(cmd *model.Command) (int, error) {
	name, _ := cmd.Attributes["timezone"].(string)
	if m := gmtOffset.FindStringSubmatch(name); m != nil {
		hours, _ := strconv.Atoi(m[2])
		minutes, _ := strconv.Atoi(m[3])
		offset := hours*60 + minutes
		if hours > 23 || minutes > 59 {
			return 0, model.Invalid("setTimezone: offset %q out of range", name)
		}
		if m[1] == "-" {
			offset = -offset
		}
		return offset, nil
	}
	loc, ok := timezone.Load(name)
	if !ok {
		return 0, model.Invalid("setTimezone needs a time zone in attributes.timezone, got %q", name)
	}
	// Daylight saving time only ever moves clocks forward from the
	// standard offset (or back to it), so the smaller of a winter and a
	// summer offset is the standard one.
	year := time.Now().Year()
	_, jan := time.Date(year, time.January, 1, 0, 0, 0, 0, loc).Zone()
	_, jul := time.Date(year, time.July, 1, 0, 0, 0, 0, loc).Zone()
	return min(jan, jul) / 60, nil
}
