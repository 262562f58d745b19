package watch

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

const imei = "123456789012345"

func TestEncode(t *testing.T) {
	sg := &protocols.Conn{UniqueID: imei, State: &session{maker: "SG"}}
	zj := &protocols.Conn{UniqueID: imei, State: &session{maker: "ZJ", hasIndex: true}}
	prototest.Encodes(t, New(), &protocols.Conn{UniqueID: imei}, []prototest.EncodeCase{
		// samples.md (no frame seen yet: Traccar's default maker "CS")
		{Type: "rebootDevice", Want: "[CS*123456789012345*0005*RESET]"},
		{Type: "sosNumber", Attributes: model.Attributes{"index": 1.0, "phone": "123456789"}, Want: "[CS*123456789012345*000e*SOS1,123456789]"},
		{Type: "message", Attributes: model.Attributes{"message": "text"}, Want: "[CS*123456789012345*0018*MESSAGE,0074006500780074]"},
		{Type: "custom", Attributes: model.Attributes{"data": "WORK,6-9,11-13,13-15,17-19"}, Want: "[CS*123456789012345*001a*WORK,6-9,11-13,13-15,17-19]"},
		// the maker and index variant of the connection
		{Conn: sg, Type: "positionSingle", Want: "[SG*123456789012345*0002*CR]"},
		{Conn: sg, Type: "positionPeriodic", Attributes: model.Attributes{"frequency": 60.0}, Want: "[SG*123456789012345*0009*UPLOAD,60]"},
		{Conn: sg, Type: "powerOff", Want: "[SG*123456789012345*0008*POWEROFF]"},
		{Conn: sg, Type: "alarmSos", Attributes: model.Attributes{"enable": true}, Want: "[SG*123456789012345*0008*SOSSMS,1]"},
		{Conn: sg, Type: "alarmBattery", Attributes: model.Attributes{"enable": false}, Want: "[SG*123456789012345*0008*LOWBAT,0]"},
		{Conn: zj, Type: "rebootDevice", Want: "[ZJ*123456789012345*0001*0005*RESET]"},
		{Conn: zj, Type: "sosNumber", Attributes: model.Attributes{"index": "2", "phone": "+4412345"}, Want: "[ZJ*123456789012345*0001*000d*SOS2,+4412345]"},
	})
}

// TestEncodeAfterDecode checks that a decoded frame sets the maker used by
// later commands.
func TestEncodeAfterDecode(t *testing.T) {
	conn := &protocols.Conn{}
	if _, err := New().Decode(conn, []byte(frameLK3)); err != nil {
		t.Fatal(err)
	}
	conn.UniqueID = "4700186508"
	got, err := New().Encode(conn, &model.Command{Type: "positionSingle"})
	if want := "[3G*4700186508*0002*CR]"; err != nil || string(got) != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func TestEncodeInvalid(t *testing.T) {
	prototest.EncodeRejects(t, New(), &protocols.Conn{UniqueID: imei}, []prototest.RejectCase{
		{Name: "unsupported", Command: model.Command{Type: "engineStop"}},
		{Name: "missing attribute", Command: model.Command{Type: "sosNumber", Attributes: model.Attributes{"index": 1.0}}},
		{Name: "empty data", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": ""}}},
		{Name: "brackets", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "CR][x"}}},
		{Name: "too long", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": strings.Repeat("x", 0x10000)}}},
		{Name: "unknown device", Conn: &protocols.Conn{}, Command: model.Command{Type: "positionSingle"}},
	})
}

func TestCommandTypes(t *testing.T) {
	got := New().CommandTypes()
	for _, typ := range []string{"positionSingle", "positionPeriodic", "sosNumber", "powerOff", "rebootDevice", "custom"} {
		if !slices.Contains(got, typ) {
			t.Errorf("CommandTypes lacks %s: %q", typ, got)
		}
	}
}
