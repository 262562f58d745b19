package tk103

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "positionSingle", Want: "(123456789012345AP00)"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 60.0}, Want: "(123456789012345AR00003C0000)"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 65535}, Want: "(123456789012345AR00FFFF0000)"},
		{Type: "positionStop", Want: "(123456789012345AR0000000000)"},
		{Type: "engineStop", Want: "(123456789012345AV010)"},
		{Type: "engineResume", Want: "(123456789012345AV011)"},
		{Type: "outputControl", Attributes: model.Attributes{"data": "1"}, Want: "(123456789012345AV001)"},
		{Type: "getVersion", Want: "(123456789012345AP07)"},
		{Type: "rebootDevice", Want: "(123456789012345AT00)"},
		{Type: "setOdometer", Want: "(123456789012345AX01)"},
		{Type: "custom", Attributes: model.Attributes{"data": "AP00"}, Want: "(123456789012345AP00)"},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "1", "frequency": 60.0})
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: "123456789012"}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "alarmArm"}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "positionSingle"}},
		{Name: "output without data", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"data": 1}}},
		{Name: "periodic too long", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 65536.0}}},
		{Name: "periodic fraction", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 1.5}}},
	})
}
