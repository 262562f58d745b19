package eelink

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// engineStop is Traccar's EelinkProtocolEncoderTest (TCP); the others
// follow its layout with their texts.
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "352544071750518"}
	hex := func(s string) string { return string(prototest.Unhex(t, s)) }
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "engineStop", Want: hex("676780000f0000010000000052454c41592c3123")},
		{Type: "engineResume", Want: hex("676780000f0000010000000052454c41592c3023")},
		{Type: "positionSingle", Want: hex("676780000d00000100000000") + "WHERE#"},
		{Type: "rebootDevice", Want: hex("676780000d00000100000000") + "RESET#"},
		{Type: "custom", Attributes: model.Attributes{"data": "STATUS#"}, Want: hex("676780000e00000100000000") + "STATUS#"},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "setTimezone", Command: model.Command{Type: "setTimezone", Attributes: model.Attributes{"timezone": "UTC"}}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "WHERE#"})
	for _, typ := range New().CommandTypes() {
		b, _ := New().Encode(conn, &model.Command{Type: typ, Attributes: model.Attributes{"data": "WHERE#"}})
		prototest.OneFrame(t, New().Split, b)
	}
}
