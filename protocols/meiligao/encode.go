package meiligao

import (
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Commands to the device.
const (
	cmdTrackOnDemand   = 0x4101
	cmdTrackByInterval = 0x4102
	cmdMovementAlarm   = 0x4106
	cmdOutputs5        = 0x4114 // five outputs
	cmdOutputs1        = 0x4115 // one output
	cmdTimeZone        = 0x4132
	cmdTakePhoto       = 0x4151
	cmdReboot          = 0x4902
)

// fiveOutputs are the models with five outputs, set by 0x4114; the others
// have one, set by 0x4115.
var fiveOutputs = []string{"TK510", "GT08", "TK208", "TK228", "MT05"}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return []string{"alarmGeofence", "engineResume", "engineStop", "outputControl", "positionPeriodic",
		"positionSingle", "rebootDevice", "requestPhoto", "setTimezone"}
}

// Encode implements protocols.Stream. The device id is the registered
// uniqueId's first 14 digits in BCD, padded with F.
func (*Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if c == nil || !digits(c.UniqueID) {
		return nil, model.Invalid("meiligao commands need the device's numeric id")
	}
	padded := c.UniqueID + "FFFFFFFFFFFFFF"
	id, _ := hex.DecodeString(padded[:14])
	var data []byte
	code := 0
	switch cmd.Type {
	case "positionSingle":
		code = cmdTrackOnDemand
	case "positionPeriodic":
		seconds, err := protocols.IntAttribute(cmd, "frequency")
		if err != nil {
			return nil, err
		}
		if seconds < 10 || seconds/10 > 0xFFFF {
			return nil, model.Invalid("positionPeriodic: frequency must be 10 to 655350 seconds")
		}
		code, data = cmdTrackByInterval, binary.BigEndian.AppendUint16(nil, uint16(seconds/10))
	case "outputControl":
		index, err := protocols.IntAttribute(cmd, "index")
		if err != nil {
			return nil, err
		}
		value, err := protocols.IntAttribute(cmd, "data")
		if err != nil {
			return nil, err
		}
		if value != 0 && value != 1 {
			return nil, model.Invalid("outputControl: data must be 0 or 1")
		}
		return outputs(id, c.Model, index, value)
	case "engineStop":
		return outputs(id, c.Model, 1, 1)
	case "engineResume":
		return outputs(id, c.Model, 1, 0)
	case "alarmGeofence":
		radius, err := protocols.IntAttribute(cmd, "radius")
		if err != nil {
			return nil, err
		}
		if radius < 1 || radius > 0xFFFF {
			return nil, model.Invalid("alarmGeofence: radius must be 1 to 65535 metres")
		}
		code, data = cmdMovementAlarm, binary.BigEndian.AppendUint16(nil, uint16(radius))
	case "setTimezone":
		tz, _ := cmd.Attributes["timezone"].(string)
		minutes, ok := standardOffset(tz)
		if !ok {
			return nil, model.Invalid("setTimezone: unknown time zone %q", tz)
		}
		code, data = cmdTimeZone, []byte(strconv.Itoa(minutes))
	case "requestPhoto":
		code = cmdTakePhoto
	case "rebootDevice":
		code = cmdReboot
	default:
		return nil, model.Invalid("command %q is not supported by meiligao", cmd.Type)
	}
	return message(id, code, data), nil
}

// outputs sets output index (1-based) to value and leaves the others
// unchanged (2).
func outputs(id []byte, deviceModel string, index, value int) ([]byte, error) {
	count, code := 1, cmdOutputs1
	if slices.Contains(fiveOutputs, deviceModel) {
		count, code = 5, cmdOutputs5
	}
	if index < 1 || index > count {
		return nil, model.Invalid("output %d: this device has outputs 1 to %d", index, count)
	}
	data := make([]byte, count)
	for i := range data {
		data[i] = 2
	}
	data[index-1] = byte(value)
	return message(id, code, data), nil
}

var gmtOffset = regexp.MustCompile(`^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$`)

// standardOffset is a time zone's offset from UTC in minutes, without
// daylight saving time: "GMT+8", "UTC-03:30" or an IANA name.
func standardOffset(tz string) (int, bool) {
	if m := gmtOffset.FindStringSubmatch(tz); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins, _ := strconv.Atoi(m[3] + "0")
		total := h*60 + mins/10
		if m[1] == "-" {
			total = -total
		}
		return total, h <= 14 && mins/10 < 60
	}
	if tz == "" {
		return 0, false
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return 0, false
	}
	// Daylight saving time only adds: the standard offset is the smaller
	// of midwinter's and midsummer's.
	year := time.Now().Year()
	_, jan := time.Date(year, 1, 1, 0, 0, 0, 0, loc).Zone()
	_, jul := time.Date(year, 7, 1, 0, 0, 0, 0, loc).Zone()
	return min(jan, jul) / 60, true
}
