package wialon

import (
	"fmt"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// texts are the fixed command lines Traccar's Wialon encoder sends.
var texts = map[string]string{
	"rebootDevice":         "reboot\r\n",
	"deviceIdentification": "VER?\r\n",
}

// CommandTypes lists the Traccar command types Encode supports.
func (p *Protocol) CommandTypes() []string {
	return protocols.CommandTypes(texts, "message", "outputControl", "sendUssd")
}

// Encode builds a command line: "reboot", "VER?", "USSD:<phone>" and
// "L<index>=<data>" as Traccar sends them; a message to the driver is the
// document's "#M#<text>" (with its CRC after a 2.0 login); custom text is
// sent as given.
func (p *Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd == nil {
		return nil, model.Invalid("no command")
	}
	switch cmd.Type {
	case "message":
		text, ok := cmd.Attributes["message"].(string)
		if !ok || text == "" {
			return nil, model.Invalid("message command needs text in attributes.message")
		}
		if c != nil && v2(c) {
			text += ";"
			text += fmt.Sprintf("%04X", crc16(text))
		}
		return []byte("#M#" + text + "\r\n"), nil
	case "sendUssd":
		phone, ok := cmd.Attributes["phone"].(string)
		if !ok || phone == "" {
			return nil, model.Invalid("sendUssd command needs attributes.phone")
		}
		return []byte("USSD:" + phone + "\r\n"), nil
	case "outputControl":
		index, err := protocols.IntAttribute(cmd, "index")
		if err != nil {
			return nil, err
		}
		data, err := protocols.CommandData(cmd)
		if err != nil {
			return nil, err
		}
		if index < 0 {
			return nil, model.Invalid("outputControl index must not be negative, got %d", index)
		}
		return fmt.Appendf(nil, "L%d=%s\r\n", index, data), nil
	}
	text, err := protocols.CommandText(cmd, texts)
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}
