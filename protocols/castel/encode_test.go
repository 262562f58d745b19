package castel

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// Bytes computed apart (Python, CRC-16/X-25 from its definition): @@,
// length 32, version 1, the id NUL-padded to 20, type 0x4583, the relay
// state, CRC, \r\n.
func TestEncode(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "engineStop", Want: u(t, "40402000013132333435363738393031323334350000000000458301a94a0d0a")},
		{Type: "engineResume", Want: u(t, "40402000013132333435363738393031323334350000000000458300205b0d0a")},
	})
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "custom", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "x"}}},
		{Name: "no device id", Conn: &protocols.Conn{}, Command: model.Command{Type: "engineStop"}},
		{Name: "id over 20 characters", Conn: &protocols.Conn{UniqueID: strings.Repeat("1", 21)}, Command: model.Command{Type: "engineStop"}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, nil)
	// A command frame is one frame to the package's own Split.
	b, _ := New().Encode(conn, &model.Command{Type: "engineStop"})
	prototest.OneFrame(t, New().Split, b)
}
