package jt600

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Traccar's Jt600ProtocolEncoderTest, and the zone forms setTimezone takes.
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "3301210003"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "engineStop", Want: "(S07,0)"},
		{Type: "engineResume", Want: "(S07,1)"},
		{Type: "rebootDevice", Want: "(S17)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "GMT+4"}, Want: "(S09,1,240)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "GMT-05:30"}, Want: "(S09,1,-330)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "UTC"}, Want: "(S09,1,0)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "Europe/Berlin"}, Want: "(S09,1,60)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "America/Sao_Paulo"}, Want: "(S09,1,-180)"},
		{Type: "setTimezone", Attributes: model.Attributes{"timezone": "Australia/Sydney"}, Want: "(S09,1,600)"},
		{Type: "custom", Attributes: model.Attributes{"data": "(S71,22,1)"}, Want: "(S71,22,1)"},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "setTimezone without a zone", Command: model.Command{Type: "setTimezone"}},
		{Name: "setTimezone with an unknown zone", Command: model.Command{Type: "setTimezone", Attributes: model.Attributes{"timezone": "Mars/Olympus"}}},
		{Name: "setTimezone out of range", Command: model.Command{Type: "setTimezone", Attributes: model.Attributes{"timezone": "GMT+25"}}},
		{Name: "positionPeriodic", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 30}}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "(S17)", "timezone": "GMT+1"})
}
