package jt808

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commandTypes are the commands Encode builds, as Traccar's encoder has
// them.
var commandTypes = []string{"custom", "rebootDevice", "positionPeriodic", "alarmArm", "alarmDisarm",
	"engineStop", "engineResume", "videoStart", "videoStop"}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string { return commandTypes }

// Parameter ids of the parameter-setting message.
const (
	paramInterval = 0x06 // reporting interval, seconds
	paramReboot   = 0x23
	paramArm      = 0x24
)

// Encode implements protocols.Stream. Commands are addressed with the
// terminal id and header version of the device's last frame on the
// connection.
func (*Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd == nil {
		return nil, model.Invalid("no command")
	}
	terminal, version, err := address(c)
	if err != nil {
		return nil, err
	}
	frame := func(typ int, body []byte) ([]byte, error) {
		return message(typ, version, terminal, false, body), nil
	}
	switch cmd.Type {
	case "custom":
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		switch {
		case c.Model == "AL300" || c.Model == "GL100" || c.Model == "VL300":
			// One terminal parameter, 0xF030: an AT command passed through.
			if len(data) > 255 {
				return nil, model.Invalid("custom command longer than 255 bytes")
			}
			return frame(msgParameters, append([]byte{1, 0, 0, 0xF0, 0x30, byte(len(data))}, data...))
		case c.Model == "BSJ" || c.Model == "C5" || c.Model == "C5L":
			return frame(msgSendText, append([]byte{1}, data...)) // flag, then the text
		case strings.HasPrefix(c.Model, "JC"):
			return frame(msgTransparentDown, append([]byte{0xF0}, data...)) // an online command
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(data, " ", ""))
		if err != nil {
			return nil, model.Invalid("custom command: attributes.data must be a whole frame in hex for this model")
		}
		return raw, nil
	case "rebootDevice":
		return frame(msgParameterSetting, []byte{1, paramReboot, 1, 0x03})
	case "positionPeriodic":
		n, err := protocols.IntAttribute(cmd, "frequency")
		if err != nil {
			return nil, err
		}
		if n < 0 || int64(n) > math.MaxUint32 {
			return nil, model.Invalid("positionPeriodic: frequency %d out of range", n)
		}
		return frame(msgParameterSetting, []byte{1, paramInterval, 4, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	case "alarmArm", "alarmDisarm":
		arm := byte(0)
		if cmd.Type == "alarmArm" {
			arm = 1
		}
		return frame(msgParameterSetting, append([]byte{1, paramArm, 5, arm}, "user"...))
	case "engineStop", "engineResume":
		stop := cmd.Type == "engineStop"
		switch c.Model {
		case "VL300":
			return frame(msgTerminalControl, []byte(pickText(stop, "#0;1", "#0;0")))
		case "W15L":
			return frame(msgTerminalControl, []byte{pickByte(stop, 0x64, 0x65)})
		}
		return frame(msgTerminalControl, []byte{pickByte(stop, 0xF0, 0xF1)})
	case "videoStart":
		return videoStart(cmd, frame)
	case "videoStop":
		channel, err := videoChannel(cmd)
		if err != nil {
			return nil, err
		}
		// Close audio and video of the main stream.
		return frame(msgVideoControl, []byte{channel, 0, 0, 0})
	}
	return nil, model.Invalid("command %q is not supported by this device protocol", cmd.Type)
}

// videoStart asks the terminal to stream a channel (JT/T 1078) to the
// media server named by attributes.host and attributes.port: fleetd has
// no such server of its own, so the operator names one.
func videoStart(cmd *model.Command, frame func(int, []byte) ([]byte, error)) ([]byte, error) {
	host, _ := cmd.Attributes["host"].(string)
	if host == "" || len(host) > 255 {
		return nil, model.Invalid("videoStart needs attributes.host, the JT/T 1078 media server")
	}
	port, err := protocols.IntAttribute(cmd, "port")
	if err != nil {
		return nil, err
	}
	if port <= 0 || port > 65535 {
		return nil, model.Invalid("videoStart: port %d out of range", port)
	}
	channel, err := videoChannel(cmd)
	if err != nil {
		return nil, err
	}
	body := append([]byte{byte(len(host))}, host...)
	// TCP port, no UDP port, the channel, video only, main stream.
	body = append(body, byte(port>>8), byte(port), 0, 0, channel, 1, 0)
	return frame(msgVideoRequest, body)
}

// videoChannel is attributes.index, the camera channel (1 when absent).
func videoChannel(cmd *model.Command) (byte, error) {
	if _, ok := cmd.Attributes["index"]; !ok {
		return 1, nil
	}
	n, err := protocols.IntAttribute(cmd, "index")
	if err != nil {
		return 0, err
	}
	if n < 0 || n > 255 {
		return 0, model.Invalid("%s: index %d out of range", cmd.Type, n)
	}
	return byte(n), nil
}

func pickText(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

func pickByte(ok bool, yes, no byte) byte {
	if ok {
		return yes
	}
	return no
}

// address is the terminal id and version to send to: the ones of the
// device's last frame, else derived from its uniqueId (a 2011 header: up
// to 12 digits in BCD, or a 15-digit IMEI as a 48-bit number without its
// check digit, as such terminals send it).
func address(c *protocols.Conn) ([]byte, int, error) {
	if s, ok := c.State.(*state); ok {
		return s.terminal, s.version, nil
	}
	id := c.UniqueID
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return nil, 0, model.Invalid("no JT/T 808 terminal id for device %q", id)
	}
	switch {
	case len(id) <= 12:
		b, _ := hex.DecodeString(strings.Repeat("0", 12-len(id)) + id)
		return b, -1, nil
	case len(id) == 15:
		n, err := strconv.ParseUint(id[:14], 10, 64)
		if err != nil || n >= 1<<48 {
			return nil, 0, model.Invalid("no JT/T 808 terminal id for device %q", id)
		}
		return []byte{byte(n >> 40), byte(n >> 32), byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, -1, nil
	}
	return nil, 0, model.Invalid("device %q has not sent a frame on this connection yet", id)
}
