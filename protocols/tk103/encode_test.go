package tk103

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
		{"positionSingle", nil, "(123456789012345AP00)"},
		{"positionPeriodic", app.Attributes{"frequency": 60.0}, "(123456789012345AR00003C0000)"},
		{"positionPeriodic", app.Attributes{"frequency": 65535}, "(123456789012345AR00FFFF0000)"},
		{"positionStop", nil, "(123456789012345AR0000000000)"},
		{"engineStop", nil, "(123456789012345AV010)"},
		{"engineResume", nil, "(123456789012345AV011)"},
		{"outputControl", app.Attributes{"data": "1"}, "(123456789012345AV001)"},
		{"getVersion", nil, "(123456789012345AP07)"},
		{"rebootDevice", nil, "(123456789012345AT00)"},
		{"setOdometer", nil, "(123456789012345AX01)"},
		{"custom", app.Attributes{"data": "AP00"}, "(123456789012345AP00)"},
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
		if _, ok := commands[typ]; !ok && typ != "custom" && typ != "positionPeriodic" && typ != "outputControl" {
			t.Errorf("CommandTypes lists %q which Encode does not know", typ)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	conn := &protocols.Conn{UniqueID: "123456789012"}
	tests := []struct {
		name string
		conn *protocols.Conn
		cmd  app.Command
	}{
		{"unsupported", conn, app.Command{Type: "alarmArm"}},
		{"unknown device", &protocols.Conn{}, app.Command{Type: "positionSingle"}},
		{"custom without data", conn, app.Command{Type: "custom"}},
		{"output without data", conn, app.Command{Type: "outputControl", Attributes: app.Attributes{"data": 1}}},
		{"periodic without frequency", conn, app.Command{Type: "positionPeriodic"}},
		{"periodic too long", conn, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": 65536.0}}},
		{"periodic fraction", conn, app.Command{Type: "positionPeriodic", Attributes: app.Attributes{"frequency": 1.5}}},
	}
	for _, tt := range tests {
		if _, err := New().Encode(tt.conn, &tt.cmd); !errors.Is(err, app.ErrInvalid) {
			t.Errorf("%s: err %v, want invalid", tt.name, err)
		}
	}
}
