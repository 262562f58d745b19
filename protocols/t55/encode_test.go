package t55

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "359853000144328"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "custom", Attributes: model.Attributes{"data": "$PMTK220,1000*1F"}, Want: "$PMTK220,1000*1F\r\n"},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"data": "$PMTK220,1000*1F"})
}

func TestEncodeRejects(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: "1"}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "engineStop"}},
		{Name: "two lines", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "a\r\nb"}}},
		{Name: "too long", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": strings.Repeat("a", maxLine+1)}}},
	})
}
