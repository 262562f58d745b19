package ruptela

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// The bytes are `length | 100+command | content | CRC-16/KERMIT`, computed
// apart from the package (Python, the CRC from its definition).
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "863591024076709"}
	u := func(s string) string { return string(prototest.Unhex(t, s)) }
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "engineStop", Want: u("00146c7061737320696d6d6f62696c697a6572203130bc22")},
		{Type: "engineResume", Want: u("00106c70617373207265736574696d6d6f62ee1f")},
		{Type: "custom", Attributes: model.Attributes{"data": "getio"}, Want: u("00066c676574696f1a9c")},
		{Type: "custom", Attributes: model.Attributes{"data": "00027401862d"}, Want: u("00027401862d")},
		{Type: "requestPhoto", Want: u("000b890100000000007fffffff89f0")},
		{Type: "configuration", Attributes: model.Attributes{"data": "#cfg_start@"}, Want: u("000e66236366675f7374617274400d0a0947")},
		{Type: "getVersion", Want: u("00016717b9")},
		{Type: "firmwareUpdate", Want: u("000c687c46555f535452542a0d0ab66b")},
		{Type: "outputControl", Attributes: model.Attributes{"index": 2.0, "data": "1"}, Want: u("00097500000002000000019bd7")},
		{Type: "setConnection", Attributes: model.Attributes{"server": "example.com", "port": 5046.0},
			Want: u("0015696578616d706c652e636f6d2c353034362c544350e6af")},
		{Type: "setOdometer", Attributes: model.Attributes{"data": 123456}, Want: u("00056a0001e2402fea")},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "configuration without data", Command: model.Command{Type: "configuration"}},
		{Name: "outputControl without index", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"data": 1}}},
		{Name: "outputControl without data", Command: model.Command{Type: "outputControl", Attributes: model.Attributes{"index": 1}}},
		{Name: "setConnection without server", Command: model.Command{Type: "setConnection", Attributes: model.Attributes{"port": 1}}},
		{Name: "setConnection port out of range", Command: model.Command{Type: "setConnection",
			Attributes: model.Attributes{"server": "a", "port": 70000}}},
		{Name: "setOdometer beyond 4 bytes", Command: model.Command{Type: "setOdometer", Attributes: model.Attributes{"data": 1 << 40}}},
		{Name: "positionPeriodic", Command: model.Command{Type: "positionPeriodic"}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "1", "index": 1, "server": "a", "port": 1})
}
