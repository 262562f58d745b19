package h02

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

func TestEncode(t *testing.T) {
	p := &Protocol{now: func() time.Time { return time.Date(2024, 5, 6, 1, 2, 3, 0, time.UTC) }}
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	for _, tc := range []struct {
		typ   string
		attrs app.Attributes
		want  string
	}{
		{"alarmArm", nil, "*HQ,123456789012345,SCF,010203,0,0#"},
		{"alarmDisarm", nil, "*HQ,123456789012345,SCF,010203,1,1#"},
		{"engineStop", nil, "*HQ,123456789012345,S20,010203,1,1#"},
		{"engineResume", nil, "*HQ,123456789012345,S20,010203,1,0#"},
		{"positionPeriodic", app.Attributes{"frequency": 30.0}, "*HQ,123456789012345,S71,010203,22,30#"},
		{"positionPeriodic", app.Attributes{"frequency": "60"}, "*HQ,123456789012345,S71,010203,22,60#"},
		{"custom", app.Attributes{"data": "*HQ,123456789012345,S23,010203,1.2.3.4,5013#"}, "*HQ,123456789012345,S23,010203,1.2.3.4,5013#"},
	} {
		got, err := p.Encode(conn, &app.Command{Type: tc.typ, Attributes: tc.attrs})
		if err != nil || string(got) != tc.want {
			t.Errorf("%s %v: got %q, %v; want %q", tc.typ, tc.attrs, got, err, tc.want)
		}
	}
	// positionPeriodic must not grow the shared parameter table.
	if c, _ := lookup("positionPeriodic"); len(c.params) != 2 {
		t.Errorf("parameter table changed: %q", c.params)
	}
}

func TestEncodeInvalid(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	for _, tc := range []struct {
		name string
		conn *protocols.Conn
		cmd  app.Command
	}{
		{"unsupported type", conn, app.Command{Type: "rebootDevice"}},
		{"custom without data", conn, app.Command{Type: "custom"}},
		{"no frequency", conn, app.Command{Type: "positionPeriodic"}},
		{"fractional frequency", conn, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": 1.5}}},
		{"negative frequency", conn, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": "-5"}}},
		{"unknown device", &protocols.Conn{}, app.Command{Type: "engineStop"}},
	} {
		if got, err := New().Encode(tc.conn, &tc.cmd); !errors.Is(err, app.ErrInvalid) {
			t.Errorf("%s: got %q, %v; want an invalid-request error", tc.name, got, err)
		}
	}
}

func TestCommandTypes(t *testing.T) {
	want := []string{"alarmArm", "alarmDisarm", "engineStop", "engineResume", "positionPeriodic", "custom"}
	if got := New().CommandTypes(); !slices.Equal(got, want) {
		t.Errorf("CommandTypes = %q", got)
	}
}
