package trv

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// prototest.Now is 07:08:09 UTC: the journal number is 070809.
func TestEncode(t *testing.T) {
	iw := &protocols.Conn{UniqueID: "355932600077007", State: session{maker: "IW"}}
	trv := &protocols.Conn{UniqueID: "352121088015548", State: session{maker: "TRV"}}
	fresh := &protocols.Conn{UniqueID: "355932600077007"}
	prototest.Encodes(t, testProtocol(), iw, []prototest.EncodeCase{
		{Type: "positionSingle", Want: "IWBP16,355932600077007,070809#"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 300.0}, Want: "IWBP15,355932600077007,070809,300#"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 86400}, Want: "IWBP15,355932600077007,070809,86400#"},
		{Type: "factoryReset", Want: "IWBP17,355932600077007,070809#"},
		{Type: "rebootDevice", Want: "IWBP18,355932600077007,070809#"},
		{Type: "powerOff", Want: "IWBP31,355932600077007,070809#"},
		{Type: "custom", Attributes: model.Attributes{"data": "IWBP33,355932600077007,080835,1"}, Want: "IWBP33,355932600077007,080835,1#"},
		{Type: "custom", Attributes: model.Attributes{"data": "IWBPXL,355932600077007,080835#"}, Want: "IWBPXL,355932600077007,080835#"},
		{Type: "powerOff", Conn: trv, Want: "TRVBP31,352121088015548,070809#"},
		{Type: "positionSingle", Conn: fresh, Want: "IWBP16,355932600077007,070809#"},
	})
	prototest.ListedCommandsEncode(t, testProtocol(), iw, model.Attributes{"data": "IWBP16,355932600077007,080835", "frequency": 60.0})
	for _, typ := range testProtocol().CommandTypes() {
		cmd, _ := testProtocol().Encode(iw, &model.Command{Type: typ, Attributes: model.Attributes{"data": "IWBP16,1,2", "frequency": 60}})
		prototest.OneFrame(t, New().Split, cmd)
	}
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, testProtocol(), &protocols.Conn{UniqueID: "355932600077007"}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "engineStop"}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "positionSingle"}},
		{Name: "periodic zero", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 0.0}}},
		{Name: "periodic too long", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 86401.0}}},
		{Name: "custom of two messages", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "IWBP16,1,2#IWBP18,1,2#"}}},
	})
}
