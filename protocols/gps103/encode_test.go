package gps103

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "positionSingle", Want: "**,imei:123456789012345,B"},
		{Type: "positionStop", Want: "**,imei:123456789012345,D"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 300.0}, Want: "**,imei:123456789012345,C,05m"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 30}, Want: "**,imei:123456789012345,C,30s"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": int64(7200)}, Want: "**,imei:123456789012345,C,02h"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 90.0}, Want: "**,imei:123456789012345,C,01m"},
		{Type: "engineStop", Want: "**,imei:123456789012345,J"},
		{Type: "engineResume", Want: "**,imei:123456789012345,K"},
		{Type: "alarmArm", Want: "**,imei:123456789012345,L"},
		{Type: "alarmDisarm", Want: "**,imei:123456789012345,M"},
		{Type: "requestPhoto", Want: "**,imei:123456789012345,160"},
		{Type: "custom", Attributes: model.Attributes{"data": "H,080"}, Want: "**,imei:123456789012345,H,080"},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "H,080", "frequency": 60.0})
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: "1"}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "rebootDevice"}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "positionSingle"}},
		{Name: "periodic zero", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 0.0}}},
		{Name: "periodic fraction", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 1.5}}},
	})
}
