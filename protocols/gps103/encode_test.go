package gps103

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		typ   string
		attrs app.Attributes
		want  string
	}{
		{"positionSingle", nil, "**,imei:123456789012345,B"},
		{"positionStop", nil, "**,imei:123456789012345,A"},
		{"positionPeriodic", app.Attributes{"frequency": 300.0}, "**,imei:123456789012345,C,05m"},
		{"positionPeriodic", app.Attributes{"frequency": 30}, "**,imei:123456789012345,C,30s"},
		{"positionPeriodic", app.Attributes{"frequency": int64(7200)}, "**,imei:123456789012345,C,02h"},
		{"positionPeriodic", app.Attributes{"frequency": 90.0}, "**,imei:123456789012345,C,01m"},
		{"engineStop", nil, "**,imei:123456789012345,J"},
		{"engineResume", nil, "**,imei:123456789012345,K"},
		{"alarmArm", nil, "**,imei:123456789012345,L"},
		{"alarmDisarm", nil, "**,imei:123456789012345,M"},
		{"requestPhoto", nil, "**,imei:123456789012345,160"},
		{"custom", app.Attributes{"data": "H,080"}, "**,imei:123456789012345,H,080"},
	}
	p := New()
	conn := &protocols.Conn{UniqueID: "123456789012345"}
	for _, tt := range tests {
		got, err := p.Encode(conn, &app.Command{Type: tt.typ, Attributes: tt.attrs})
		if err != nil || string(got) != tt.want {
			t.Errorf("%s %v: got %q %v, want %q", tt.typ, tt.attrs, got, err, tt.want)
		}
	}
	for _, typ := range p.CommandTypes() {
		if _, ok := commands[typ]; !ok && typ != "custom" && typ != "positionPeriodic" {
			t.Errorf("CommandTypes lists %q which Encode does not know", typ)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name string
		conn *protocols.Conn
		cmd  app.Command
	}{
		{"unsupported", &protocols.Conn{UniqueID: "1"}, app.Command{Type: "rebootDevice"}},
		{"unknown device", &protocols.Conn{}, app.Command{Type: "positionSingle"}},
		{"custom without data", &protocols.Conn{UniqueID: "1"}, app.Command{Type: "custom"}},
		{"periodic without frequency", &protocols.Conn{UniqueID: "1"}, app.Command{Type: "positionPeriodic"}},
		{"periodic zero", &protocols.Conn{UniqueID: "1"}, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": 0.0}}},
		{"periodic fraction", &protocols.Conn{UniqueID: "1"}, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": 1.5}}},
	}
	for _, tt := range tests {
		if _, err := New().Encode(tt.conn, &tt.cmd); !errors.Is(err, app.ErrInvalid) {
			t.Errorf("%s: err %v, want invalid", tt.name, err)
		}
	}
}
