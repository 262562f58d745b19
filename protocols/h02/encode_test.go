package h02

import (
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestEncode(t *testing.T) {
	p := &Protocol{now: func() time.Time { return time.Date(2024, 5, 6, 1, 2, 3, 0, time.UTC) }}
	prototest.Encodes(t, p, &protocols.Conn{UniqueID: "123456789012345"}, []prototest.EncodeCase{
		{Type: "alarmArm", Want: "*HQ,123456789012345,SCF,010203,0,0#"},
		{Type: "alarmDisarm", Want: "*HQ,123456789012345,SCF,010203,1,1#"},
		{Type: "engineStop", Want: "*HQ,123456789012345,S20,010203,1,1#"},
		{Type: "engineResume", Want: "*HQ,123456789012345,S20,010203,1,0#"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 30.0}, Want: "*HQ,123456789012345,S71,010203,22,30#"},
		{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": "60"}, Want: "*HQ,123456789012345,S71,010203,22,60#"},
		{Type: "custom", Attributes: model.Attributes{"data": "*HQ,123456789012345,S23,010203,1.2.3.4,5013#"},
			Want: "*HQ,123456789012345,S23,010203,1.2.3.4,5013#"},
	})
	// positionPeriodic must not grow the shared parameter table.
	if c, _ := lookup("positionPeriodic"); len(c.params) != 2 {
		t.Errorf("parameter table changed: %q", c.params)
	}
}

func TestEncodeInvalid(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: "123456789012345"}, []prototest.RejectCase{
		{Name: "unsupported type", Command: model.Command{Type: "rebootDevice"}},
		{Name: "fractional frequency", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 1.5}}},
		{Name: "negative frequency", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": "-5"}}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "engineStop"}},
	})
}

func TestCommandTypes(t *testing.T) {
	want := []string{"alarmArm", "alarmDisarm", "engineStop", "engineResume", "positionPeriodic", "custom"}
	if got := New().CommandTypes(); !slices.Equal(got, want) {
		t.Errorf("CommandTypes = %q", got)
	}
}
