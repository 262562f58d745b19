package prototest

import (
	"errors"
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// EncodeCase is a command and the exact bytes Encode must produce for it.
type EncodeCase struct {
	Type       string
	Attributes model.Attributes
	Want       string
	Conn       *protocols.Conn // nil: the table's connection
}

// Encodes checks p.Encode on every case, on conn unless the case has its own.
func Encodes(t testing.TB, p protocols.Stream, conn *protocols.Conn, cases []EncodeCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := p.Encode(or(tc.Conn, conn), &model.Command{Type: tc.Type, Attributes: tc.Attributes})
		if err != nil || string(got) != tc.Want {
			t.Errorf("%s %v: got %q, %v; want %q", tc.Type, tc.Attributes, got, err, tc.Want)
		}
	}
}

// RejectCase is a command Encode must refuse.
type RejectCase struct {
	Name    string
	Command model.Command
	Conn    *protocols.Conn // nil: the table's connection
}

// EncodeRejects checks that p.Encode refuses every case with an error
// matching app.ErrInvalid and no bytes, on conn unless the case has its own.
// Every protocol must also refuse a type it does not list and, when listed,
// "custom" without attributes.data and "positionPeriodic" without
// attributes.frequency: those cases are added.
func EncodeRejects(t testing.TB, p protocols.Stream, conn *protocols.Conn, cases []RejectCase) {
	t.Helper()
	cases = append(cases, RejectCase{Name: "type not listed", Command: model.Command{Type: "noSuchCommand"}})
	for _, typ := range []string{"custom", "positionPeriodic"} {
		if slices.Contains(p.CommandTypes(), typ) {
			cases = append(cases, RejectCase{Name: typ + " without its attribute", Command: model.Command{Type: typ}})
		}
	}
	for _, tc := range cases {
		if got, err := p.Encode(or(tc.Conn, conn), &tc.Command); !errors.Is(err, model.ErrInvalid) || got != nil {
			t.Errorf("%s: got %q, %v; want an invalid-request error", tc.Name, got, err)
		}
	}
}

// or returns own, or table when own is nil.
func or(own, table *protocols.Conn) *protocols.Conn {
	if own != nil {
		return own
	}
	return table
}

// ListedCommandsEncode checks that every type p.CommandTypes lists encodes
// on conn given attrs (which should hold what those commands need).
func ListedCommandsEncode(t testing.TB, p protocols.Stream, conn *protocols.Conn, attrs model.Attributes) {
	t.Helper()
	for _, typ := range p.CommandTypes() {
		if _, err := p.Encode(conn, &model.Command{Type: typ, Attributes: attrs}); err != nil {
			t.Errorf("CommandTypes lists %q, which does not encode: %v", typ, err)
		}
	}
}
