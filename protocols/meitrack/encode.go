package meitrack

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commandTexts are the fixed commands: A10 tracks on demand; C01 sets the
// outputs, one digit each (0 off, 1 on, 2 unchanged): output 1 cuts the
// engine, output 3 arms the alarm.
var commandTexts = map[string]string{
	"positionSingle": "A10",
	"engineStop":     "C01,0,12222",
	"engineResume":   "C01,0,02222",
	"alarmArm":       "C01,0,22122",
	"alarmDisarm":    "C01,0,22022",
}

// CommandTypes implements protocols.Stream.
func (*Protocol) CommandTypes() []string {
	return protocols.CommandTypes(commandTexts, "requestPhoto", "sendSms")
}

// Encode implements protocols.Stream: "@@A<length>,<imei>,<command>*<sum>\r\n".
func (*Protocol) Encode(c *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if c == nil || !isDigits(c.UniqueID) || len(c.UniqueID) < minIMEI || len(c.UniqueID) > maxIMEI {
		return nil, model.Invalid("meitrack commands need the device's IMEI")
	}
	var text string
	switch cmd.Type {
	case "requestPhoto":
		// D03 takes a picture with the given camera (1 by default).
		index := 1
		if _, ok := cmd.Attributes["index"]; ok {
			n, err := protocols.IntAttribute(cmd, "index")
			if err != nil {
				return nil, err
			}
			index = max(n, 1)
		}
		text = "D03," + strconv.Itoa(index) + ",camera_picture.jpg"
	case "sendSms":
		phone, _ := cmd.Attributes["phone"].(string)
		msg, _ := cmd.Attributes["message"].(string)
		if phone == "" || msg == "" {
			return nil, model.Invalid("sendSms needs attributes.phone and attributes.message")
		}
		text = "C02,0," + phone + "," + msg
	default:
		var err error
		if text, err = protocols.CommandText(cmd, commandTexts); err != nil {
			return nil, err
		}
	}
	if strings.ContainsAny(text, "*\r\n") {
		return nil, model.Invalid("meitrack command text must not hold '*' or line breaks")
	}
	return message('A', c.UniqueID, text), nil
}
