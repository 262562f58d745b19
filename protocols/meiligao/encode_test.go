package meiligao

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// The first six are Traccar's encoder test vectors.
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	h := func(s string) string { return string(prototest.Unhex(t, s)) }
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "positionSingle", Want: h("404000111234567890123441016cf70d0a")},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 100.0}, Want: h("40400013123456789012344102000a2f4f0d0a")},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "GMT+8"}, Want: h("4040001412345678901234413234383030ad0d0a")},
		{Type: "rebootDevice", Want: h("40400011123456789012344902d53d0d0a")},
		{Type: "alarmGeofence", Attributes: model.Attributes{"radius": 1000.0}, Want: h("4040001312345678901234410603e87bb00d0a")},
		{Type: "engineStop", Want: h("4040001212345678901234411501fd460d0a")},
		{Type: "engineResume", Want: string(message(prototest.Unhex(t, "12345678901234"), cmdOutputs1, []byte{0}))},
		{Type: "outputControl", Attributes: model.Attributes{"index": 1.0, "data": "1"}, Want: h("4040001212345678901234411501fd460d0a")},
		{Type: "outputControl", Attributes: model.Attributes{"index": 3.0, "data": 1.0}, Conn: &protocols.Conn{UniqueID: "123456", Model: "TK510"},
			Want: string(message(prototest.Unhex(t, "123456ffffffff"), cmdOutputs5, []byte{2, 2, 1, 2, 2}))},
		{Type: "requestPhoto", Want: string(message(prototest.Unhex(t, "12345678901234"), cmdTakePhoto, nil))},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "America/New_York"},
			Want: string(message(prototest.Unhex(t, "12345678901234"), cmdTimeZone, []byte("-300")))},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "output 2 of a one-output unit", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": 2.0, "data": 1.0}}},
		{Name: "unknown time zone", Command: model.Command{Type: "setTimezone", Attributes: model.Attributes{"timezone": "Mars/Base"}}},
		{Name: "interval under 10 s", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 5.0}}},
		{Name: "no id yet", Command: model.Command{Type: "positionSingle"}, Conn: &protocols.Conn{}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"frequency": 60.0, "index": 1.0, "data": 1.0,
		"radius": 100.0, "timezone": "UTC"})
}
