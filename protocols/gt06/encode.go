package gt06

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commandTexts are the SMS-style texts sent in an online command packet.
var commandTexts = map[string]string{
	"engineStop":   "Relay,1#",
	"engineResume": "Relay,0#",
}

// maxCommandText keeps the 1-byte frame length within range.
const maxCommandText = 255 - 10

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commandTexts)
}

// Encode implements protocols.Stream: an online command packet (0x80) with
// command length, server flag 0, ASCII text and serial number 0.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	text, err := protocols.CommandText(cmd, commandTexts)
	if err != nil {
		return nil, err
	}
	if len(text) > maxCommandText {
		return nil, model.Invalid("command text longer than %d bytes", maxCommandText)
	}
	content := make([]byte, 0, 5+len(text))
	content = append(content, byte(4+len(text)), 0, 0, 0, 0)
	content = append(content, text...)
	return response(false, msgCommand0, content, []byte{0, 0}), nil
}
