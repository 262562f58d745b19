package prototest

import (
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

func TestEncodes(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "7"}
	tests := []struct {
		name  string
		cases []EncodeCase
		fail  bool
	}{
		{"right bytes", []EncodeCase{
			{Type: "engineStop", Want: "7:stop\n"},
			{Type: "custom", Attributes: model.Attributes{"data": "x"}, Want: "7:x\n"},
			{Type: "engineStop", Conn: &protocols.Conn{UniqueID: "8"}, Want: "8:stop\n"},
		}, false},
		{"wrong bytes", []EncodeCase{{Type: "engineStop", Want: "7:stop"}}, true},
		{"case connection ignored", []EncodeCase{{Type: "engineStop", Conn: &protocols.Conn{UniqueID: "8"}, Want: "7:stop\n"}}, true},
		{"encode error", []EncodeCase{{Type: "custom", Want: ""}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectFailures(t, tt.fail, func(tb testing.TB) { Encodes(tb, lineStream{}, conn, tt.cases) })
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "7"}
	expectFailures(t, false, func(tb testing.TB) {
		EncodeRejects(tb, lineStream{}, conn, []RejectCase{
			{Name: "unsupported", Command: model.Command{Type: "rebootDevice"}},
			{Name: "custom without data", Command: model.Command{Type: "custom"}},
			{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "engineStop"}},
		})
	})
	expectFailures(t, true, func(tb testing.TB) {
		EncodeRejects(tb, lineStream{}, conn, []RejectCase{{Name: "accepted", Command: model.Command{Type: "engineStop"}}})
	})
	expectFailures(t, true, func(tb testing.TB) {
		EncodeRejects(tb, lineStream{encodeErr: model.NotFound("device")}, conn,
			[]RejectCase{{Name: "wrong kind", Command: model.Command{Type: "rebootDevice"}}})
	})
	// The cases every protocol must refuse are checked without being listed.
	expectFailures(t, false, func(tb testing.TB) { EncodeRejects(tb, lineStream{}, conn, nil) })
	expectFailures(t, true, func(tb testing.TB) { EncodeRejects(tb, lenient{}, conn, nil) })
	expectFailures(t, true, func(tb testing.TB) { EncodeRejects(tb, lenient{refuse: []string{"noSuchCommand"}}, conn, nil) })
	expectFailures(t, true, func(tb testing.TB) {
		EncodeRejects(tb, lenient{refuse: []string{"noSuchCommand", "custom"}}, conn, nil)
	})
	expectFailures(t, false, func(tb testing.TB) {
		EncodeRejects(tb, lenient{refuse: []string{"noSuchCommand", "custom", "positionPeriodic"}}, conn, nil)
	})
}

// lenient encodes every command but those it refuses.
type lenient struct {
	lineStream
	refuse []string
}

func (l lenient) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if slices.Contains(l.refuse, cmd.Type) {
		return nil, model.Invalid("not supported")
	}
	return []byte(cmd.Type), nil
}
