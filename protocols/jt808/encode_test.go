package jt808

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// connAfter is the connection state Decode leaves after frame (wire hex).
func connAfter(t *testing.T, deviceModel, frame string) *protocols.Conn {
	t.Helper()
	c := &protocols.Conn{Model: deviceModel}
	res, err := New().Decode(c, prototest.Unhex(t, frame))
	if err != nil {
		t.Fatal(err)
	}
	c.UniqueID = res.UniqueID
	return c
}

// register2019 is a JT/T 808-2019 register frame (version 1, 10-byte id)
// from Traccar's tests.
const register2019 = "7e0100405c010000086649607758216452180000000000000000000000000000004d443330300000000000000000000000000000000000000000000000000038363634393630373735383231363400000000000000000000000000000004000000000000000000000000000000007a7e"

// TestEncode: every command as Traccar's encoder builds it, addressed to
// the terminal id and header version of the device's frames.
func TestEncode(t *testing.T) {
	conn := connAfter(t, "", wireHeartbeat)
	withModel := func(m string) *protocols.Conn { return connAfter(t, m, wireHeartbeat) }
	prototest.Encodes(t, New(), conn, []prototest.EncodeCase{
		{Type: "rebootDevice", Want: hx("7e03100004043048325465000001230103487e")},
		{Type: "positionPeriodic", Attributes: attrs("frequency", 30), Want: hx("7e0310000704304832546500000106040000001e767e")},
		{Type: "alarmArm", Want: hx("7e0310000804304832546500000124050175736572547e")},
		{Type: "alarmDisarm", Want: hx("7e0310000804304832546500000124050075736572557e")},
		{Type: "engineStop", Want: hx("7e810500010430483254650000f00a7e")},
		{Type: "engineResume", Want: hx("7e810500010430483254650000f10b7e")},
		{Type: "engineStop", Want: hx("7e8105400101000008664960775821640000f0197e"), Conn: connAfter(t, "", register2019)},
		{Type: "engineStop", Want: hx("7e81050004043048325465000023303b31e67e"), Conn: withModel("VL300")},
		{Type: "engineResume", Want: hx("7e810500010430483254650000659f7e"), Conn: withModel("W15L")},
		{Type: "custom", Attributes: attrs("data", "7e8105000104304832546500000a00087e"), Want: hx("7e8105000104304832546500000a00087e")},
		{Type: "custom", Attributes: attrs("data", "AT+RESET!"), Want: hx("7e8103000f0430483254650000010000f0300941542b524553455421707e"), Conn: withModel("AL300")},
		{Type: "custom", Attributes: attrs("data", "STATUS#"), Want: hx("7e8300000804304832546500000153544154555323c27e"), Conn: withModel("C5L")},
		{Type: "custom", Attributes: attrs("data", "STATUS#"), Want: hx("7e890000080430483254650000f053544154555323397e"), Conn: withModel("JC371")},
		{Type: "videoStart", Attributes: model.Attributes{"host": "example.org", "port": 1050, "index": 2},
			Want: hx("7e9101001304304832546500000b6578616d706c652e6f7267041a0000020100d67e")},
		{Type: "videoStop", Want: hx("7e91020004043048325465000001000000e97e")},
		// Before any frame: the id from the uniqueId, a 2011 header.
		{Type: "engineStop", Want: hx("7e810500010430483254650000f00a7e"), Conn: &protocols.Conn{UniqueID: "43048325465"}},
	})
	prototest.ListedCommandsEncode(t, New(), conn, model.Attributes{"frequency": 60, "data": "00", "host": "h", "port": 1})
}

func attrs(key string, v any) model.Attributes { return model.Attributes{key: v} }

func TestEncodeRejects(t *testing.T) {
	conn := connAfter(t, "", wireHeartbeat)
	prototest.EncodeRejects(t, New(), conn, []prototest.RejectCase{
		{Name: "custom that is not hex", Command: model.Command{Type: "custom", Attributes: model.Attributes{"data": "STATUS#"}}},
		{Name: "videoStart without a media server", Command: model.Command{Type: "videoStart"}},
		{Name: "videoStart with a bad port", Command: model.Command{Type: "videoStart", Attributes: model.Attributes{"host": "h", "port": 70000}}},
		{Name: "negative interval", Command: model.Command{Type: "positionPeriodic", Attributes: model.Attributes{"frequency": -1}}},
		{Name: "no terminal id", Command: model.Command{Type: "engineStop"}, Conn: &protocols.Conn{UniqueID: "abc"}},
	})
}

// TestCommandsReachTheDevice: what Encode builds, a JT/T 808 terminal
// reads back as one frame with a good check.
func TestCommandsReachTheDevice(t *testing.T) {
	conn := connAfter(t, "", wireEscaped) // a terminal id with 7D in it
	for _, typ := range []string{"rebootDevice", "engineStop", "videoStop"} {
		b, err := New().Encode(conn, &model.Command{Type: typ})
		if err != nil {
			t.Fatal(err)
		}
		prototest.OneFrame(t, New().Split, b)
		u, err := unescape(b)
		if err != nil {
			t.Fatal(err)
		}
		if h, err := parse(u); err != nil || !h.checksum || uniqueID(terminalID(h.terminal)) != "868935060010210" {
			t.Errorf("%s: %x does not parse back (%v)", typ, b, err)
		}
	}
}
