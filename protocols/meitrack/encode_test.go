package meitrack

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// The first three are Traccar's encoder test vectors.
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "positionSingle", Want: "@@A25,123456789012345,A10*58\r\n"},
		{Type: "requestPhoto", Want: "@@A46,123456789012345,D03,1,camera_picture.jpg*1C\r\n"},
		{Type: "sendSms", Attributes: model.Attributes{"phone": "15360853789", "message": "Meitrack"},
			Want: "@@A48,123456789012345,C02,0,15360853789,Meitrack*8B\r\n"},
		{Type: "requestPhoto", Attributes: model.Attributes{"index": 2.0}, Want: "@@A46,123456789012345,D03,2,camera_picture.jpg*1D\r\n"},
		{Type: "engineStop", Want: "@@A33,123456789012345,C01,0,12222*DA\r\n"},
		{Type: "engineResume", Want: "@@A33,123456789012345,C01,0,02222*D9\r\n"},
		{Type: "alarmArm", Want: "@@A33,123456789012345,C01,0,22122*DA\r\n"},
		{Type: "alarmDisarm", Want: "@@A33,123456789012345,C01,0,22022*D9\r\n"},
		{Type: "custom", Attributes: model.Attributes{"data": "A11,60"}, Want: "@@A28,123456789012345,A11,60*EE\r\n"},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "sendSms without a phone", Command: model.Command{Type: "sendSms", Attributes: model.Attributes{"message": "x"}}},
		{Name: "custom with a checksum mark", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "A10*"}}},
		{Name: "no IMEI yet", Command: model.Command{Type: "positionSingle"}, Conn: &protocols.Conn{}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "A10", "phone": "1", "message": "m"})
	for _, typ := range New().CommandTypes() {
		b, _ := New().Encode(conn, &model.Command{Type: typ, Attributes: model.Attributes{"data": "A10", "phone": "1", "message": "m"}})
		if _, sumOK := frameBody(b); !sumOK {
			t.Errorf("%s: %q has a wrong checksum", typ, b)
		}
	}
}
