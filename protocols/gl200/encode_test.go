package gl200

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "860599000773978"}
	pw := model.Attributes{"devicePassword": "gl300"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "positionSingle", Want: "AT+GTRTO=,1,,,,,,FFFF$"},
		{Type: "positionSingle", Attributes: pw, Want: "AT+GTRTO=gl300,1,,,,,,FFFF$"},
		{Type: "engineStop", Attributes: pw, Want: "AT+GTOUT=gl300,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$"},
		{Type: "engineResume", Attributes: pw, Want: "AT+GTOUT=gl300,0,,,0,0,0,0,0,0,0,,,,,,,FFFF$"},
		{Type: "identification", Attributes: pw, Want: "AT+GTRTO=gl300,8,,,,,,FFFF$"},
		{Type: "rebootDevice", Attributes: pw, Want: "AT+GTRTO=gl300,3,,,,,,FFFF$"},
		{Type: "custom", Attributes: model.Attributes{"data": "AT+GTFRI=gl300,1,0,,1,0000,0000,,30,,,,,,,FFFF$"},
			Want: "AT+GTFRI=gl300,1,0,,1,0000,0000,,30,,,,,,,FFFF$"},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "AT+GTRTO=gl300,1,,,,,,FFFF$"})
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: "860599000773978"}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "positionPeriodic"}},
		{Name: "custom without data", Command: model.Command{Type: "custom"}},
		{Name: "password with a comma", Command: model.Command{Type: "engineStop", Attributes: model.Attributes{"devicePassword": "a,b"}}},
		{Name: "password not text", Command: model.Command{Type: "engineStop", Attributes: model.Attributes{"devicePassword": 1234}}},
	})
}
