package ruptela

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"regexp"
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// smsTexts are the typed commands sent as SMS text over GPRS (command 8):
// the immobilizer output as Ruptela's SMS command list names it.
var smsTexts = map[string]string{
	"engineStop":   "pass immobilizer 10",
	"engineResume": "pass resetimmob",
}

var hexData = regexp.MustCompile(`^([0-9A-Fa-f]{2})+$`)

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return protocols.CommandTypes(smsTexts, "requestPhoto", "configuration", "getVersion",
		"firmwareUpdate", "outputControl", "setConnection", "setOdometer")
}

// Encode implements protocols.Stream. A custom command whose data is hex
// digit pairs is sent as those bytes, unframed (a whole server message
// written by hand); other text goes as an SMS command over GPRS.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd == nil {
		return nil, model.Invalid("no command")
	}
	var (
		code    int
		content []byte
	)
	switch cmd.Type {
	case "requestPhoto":
		// Sub-command 1 (list and send), source 0, all files from time
		// 0 to the largest signed 32-bit time.
		code, content = cmdFiles, []byte{1, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF}
	case "configuration":
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		code, content = cmdConfiguration, []byte(data+"\r\n")
	case "getVersion":
		code = cmdVersion
	case "firmwareUpdate":
		code, content = cmdFirmware, []byte("|FU_STRT*\r\n")
	case "outputControl":
		index, err := int32Attribute(cmd, "index")
		if err != nil {
			return nil, err
		}
		value, err := int32Attribute(cmd, "data")
		if err != nil {
			return nil, err
		}
		code = cmdSetIO
		content = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, index), value)
	case "setConnection":
		server, ok := cmd.Attributes["server"].(string)
		if !ok || server == "" {
			return nil, model.Invalid("setConnection command needs attributes.server")
		}
		port, err := protocols.IntAttribute(cmd, "port")
		if err != nil {
			return nil, err
		}
		if port < 1 || port > math.MaxUint16 {
			return nil, model.Invalid("setConnection command: port %d out of range", port)
		}
		code, content = cmdSetConnection, []byte(server+","+strconv.Itoa(port)+",TCP")
	case "setOdometer":
		value, err := int32Attribute(cmd, "data")
		if err != nil {
			return nil, err
		}
		code, content = cmdSetOdometer, binary.BigEndian.AppendUint32(nil, value)
	default:
		text, err := protocols.CommandText(cmd, smsTexts)
		if err != nil {
			return nil, err
		}
		if cmd.Type == "custom" && hexData.MatchString(text) {
			raw, _ := hex.DecodeString(text)
			return raw, nil
		}
		code, content = cmdSMS, []byte(text)
	}
	if len(content) > MaxFrame-overhead-1 {
		return nil, model.Invalid("command data too long")
	}
	return response(code, content), nil
}

// int32Attribute reads a whole-number attribute sent as a 4-byte field.
func int32Attribute(cmd *model.Command, key string) (uint32, error) {
	v, err := protocols.IntAttribute(cmd, key)
	if err != nil {
		return 0, err
	}
	if int64(v) < math.MinInt32 || int64(v) > math.MaxUint32 {
		return 0, model.Invalid("%s command: attributes.%s %d out of range", cmd.Type, key, v)
	}
	return uint32(v), nil
}
