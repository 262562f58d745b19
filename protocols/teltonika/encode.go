package teltonika

import (
	"encoding/binary"
	"encoding/hex"
	"regexp"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commandTexts are the SMS/GPRS commands sent for typed commands. Digital
// output 1 drives the immobiliser relay in Teltonika's wiring diagrams.
var commandTexts = map[string]string{
	"engineStop":   "setdigout 1",
	"engineResume": "setdigout 0",
}

const commandType = 0x05

var hexData = regexp.MustCompile(`^([0-9A-Fa-f]{2})+$`)

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commandTexts)
}

// Encode implements protocols.Stream: a codec 12 command packet. A custom
// command's data that is entirely hex digit pairs is sent as those bytes
// (as Traccar does); any other text is sent as ASCII.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	text, err := protocols.CommandText(cmd, commandTexts)
	if err != nil {
		return nil, err
	}
	payload := []byte(text)
	if hexData.MatchString(text) {
		payload, _ = hex.DecodeString(text)
	}
	if len(payload) > MaxFrame-avlOverhead-minCodec-5 {
		return nil, model.Invalid("command data too long")
	}
	data := []byte{codec12, 1, commandType}
	data = binary.BigEndian.AppendUint32(data, uint32(len(payload)))
	data = append(data, payload...)
	return wrapAVL(append(data, 1)), nil
}

// wrapAVL frames codec data for TCP: zero preamble, data length, data and
// the CRC-16/IBM of the data in 4 bytes.
func wrapAVL(data []byte) []byte {
	out := make([]byte, 4, avlOverhead+len(data))
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, uint32(crc16IBM(data)))
}
