package eelink

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commands are the texts Eelink devices take in a 0x80 packet.
var commands = map[string]string{
	"positionSingle": "WHERE#",
	"engineStop":     "RELAY,1#",
	"engineResume":   "RELAY,0#",
	"rebootDevice":   "RESET#",
}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string { return protocols.CommandTypes(commands) }

// Encode implements protocols.Stream: a 0x80 packet (serial 0) holding
// command type 1 (text), a zero server id and the text.
func (*Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	text, err := protocols.CommandText(cmd, commands)
	if err != nil {
		return nil, err
	}
	if len(text) > 0xFFFF-2-5 {
		return nil, model.Invalid("eelink: command text too long")
	}
	content := append([]byte{0x01, 0, 0, 0, 0}, text...)
	return answer(packet{typ: msgDownlink}, content), nil
}
