package watch

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

const imei = "123456789012345"

func TestEncode(t *testing.T) {
	fresh := &protocols.Conn{UniqueID: imei}
	sg := &protocols.Conn{UniqueID: imei, State: session{"SG", false}}
	zj := &protocols.Conn{UniqueID: imei, State: session{"ZJ", true}}
	for _, tc := range []struct {
		conn  *protocols.Conn
		typ   string
		attrs app.Attributes
		want  string
	}{
		// samples.md (no frame seen yet: Traccar's default maker "CS")
		{fresh, "rebootDevice", nil, "[CS*123456789012345*0005*RESET]"},
		{fresh, "sosNumber", app.Attributes{"index": 1.0, "phone": "123456789"}, "[CS*123456789012345*000e*SOS1,123456789]"},
		{fresh, "message", app.Attributes{"message": "text"}, "[CS*123456789012345*0018*MESSAGE,0074006500780074]"},
		{fresh, "custom", app.Attributes{"data": "WORK,6-9,11-13,13-15,17-19"}, "[CS*123456789012345*001a*WORK,6-9,11-13,13-15,17-19]"},
		// the maker and index variant of the connection
		{sg, "positionSingle", nil, "[SG*123456789012345*0002*CR]"},
		{sg, "positionPeriodic", app.Attributes{"frequency": 60.0}, "[SG*123456789012345*0009*UPLOAD,60]"},
		{sg, "powerOff", nil, "[SG*123456789012345*0008*POWEROFF]"},
		{sg, "alarmSos", app.Attributes{"enable": true}, "[SG*123456789012345*0008*SOSSMS,1]"},
		{sg, "alarmBattery", app.Attributes{"enable": false}, "[SG*123456789012345*0008*LOWBAT,0]"},
		{zj, "rebootDevice", nil, "[ZJ*123456789012345*0001*0005*RESET]"},
		{zj, "sosNumber", app.Attributes{"index": "2", "phone": "+4412345"}, "[ZJ*123456789012345*0001*000d*SOS2,+4412345]"},
	} {
		got, err := New().Encode(tc.conn, &app.Command{Type: tc.typ, Attributes: tc.attrs})
		if err != nil || string(got) != tc.want {
			t.Errorf("%s %v: got %q, %v; want %q", tc.typ, tc.attrs, got, err, tc.want)
		}
	}
}

// TestEncodeAfterDecode checks that a decoded frame sets the maker used by
// later commands.
func TestEncodeAfterDecode(t *testing.T) {
	conn := &protocols.Conn{}
	if _, err := New().Decode(conn, []byte(frameLK3)); err != nil {
		t.Fatal(err)
	}
	conn.UniqueID = "4700186508"
	got, err := New().Encode(conn, &app.Command{Type: "positionSingle"})
	if want := "[3G*4700186508*0002*CR]"; err != nil || string(got) != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func TestEncodeInvalid(t *testing.T) {
	conn := &protocols.Conn{UniqueID: imei}
	for _, tc := range []struct {
		name string
		conn *protocols.Conn
		cmd  app.Command
	}{
		{"unsupported", conn, app.Command{Type: "engineStop"}},
		{"missing attribute", conn, app.Command{Type: "sosNumber", Attributes: app.Attributes{"index": 1.0}}},
		{"empty data", conn, app.Command{Type: "custom", Attributes: app.Attributes{"data": ""}}},
		{"brackets", conn, app.Command{Type: "custom", Attributes: app.Attributes{"data": "CR][x"}}},
		{"too long", conn, app.Command{Type: "custom", Attributes: app.Attributes{"data": strings.Repeat("x", 0x10000)}}},
		{"unknown device", &protocols.Conn{}, app.Command{Type: "positionSingle"}},
	} {
		if got, err := New().Encode(tc.conn, &tc.cmd); !errors.Is(err, app.ErrInvalid) {
			t.Errorf("%s: got %q, %v; want an invalid-request error", tc.name, got, err)
		}
	}
}

func TestCommandTypes(t *testing.T) {
	got := New().CommandTypes()
	for _, typ := range []string{"positionSingle", "positionPeriodic", "sosNumber", "powerOff", "rebootDevice", "custom"} {
		if !slices.Contains(got, typ) {
			t.Errorf("CommandTypes lacks %s: %q", typ, got)
		}
	}
}
