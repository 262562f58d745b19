package protocols_test

import (
	"bytes"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// A GT06 login (IMEI 123456789012345, made here with its CRC) and a GPS +
// LBS fix from Traccar's decoder tests (2015-10-20 14:21:11).
const (
	inboxLogin = "78780d01012345678901234500018cdd0d0a"
	inboxFix   = "78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a"
	// inboxFlipped is inboxFix with one latitude bit flipped (0x05e51e78 ->
	// 0x05e51e79) and its CRC left as it was.
	inboxFlipped = "78781f120f0a140e150bc505e51e790293a9e800540000f601006e0055da00035f240d0a"
	// inboxUnknownType is a well-formed frame (right length and CRC) of a
	// message type fleetd does not decode, 0xFE.
	inboxUnknownType = "787806fe0000013c0f0d0a"
	inboxAck         = "787805120003" // + CRC + 0d0a: the fix's ACK (serial 0003)
	// inboxOld is inboxFix dated 2099 (year byte 0x63), its CRC made anew.
	inboxOld = "78781f12630a140e150bc505e51e780293a9e800540000f601006e0055da000321220d0a"
)

// The rules of what is answered, stored and kept in the inbox, on a real
// GT06 socket with a real store: an unknown device, a corrupt fix, a type
// not decoded and a fix from a device marked to ignore checksums.
func TestInboxKeepsWhatIsNotUsed(t *testing.T) {
	core, admin, l := listening(t, "gt06")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", l.Addrs["gt06"].String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// send writes a frame and returns what came back within 300 ms.
	send := func(c net.Conn, frame string) string {
		t.Helper()
		b, _ := hex.DecodeString(frame)
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		buf := make([]byte, 256)
		n, _ := c.Read(buf)
		return hex.EncodeToString(buf[:n])
	}
	const imei = "123456789012345"
	frames := func(f inbox.Filter) []inbox.Frame {
		t.Helper()
		list, err := core.Ingest.Frames(admin, f)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}

	// An unknown device: no answer, listed with its frame.
	c := dial()
	if got := send(c, inboxLogin); got != "" {
		t.Fatalf("unknown device answered %s", got)
	}
	unknown, _ := core.Ingest.UnknownDevices(admin)
	if len(unknown) != 1 || len(unknown[0].Frames) != 1 || unknown[0].Frames[0].Hex != inboxLogin ||
		unknown[0].Frames[0].Reason != inbox.UnknownDevice || unknown[0].Frames[0].Protocol != "gt06" {
		t.Fatalf("unknown devices = %+v", unknown)
	}

	d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "van", imei; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if list := frames(inbox.Filter{UniqueID: imei}); len(list) != 0 {
		t.Fatalf("frames of a registered id still kept as unknown: %+v", list)
	}
	c = dial()
	if got := send(c, inboxLogin); got == "" {
		t.Fatal("login of a registered device not answered")
	}
	stored := func() int {
		ps, err := core.Fleet.Positions(admin, fleet.PositionQuery{DeviceID: d.ID,
			From: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		return len(ps)
	}

	steps := []struct {
		name, frame string
		answered    bool
		stored      int    // positions of the device after the step
		reason      string // the inbox entry it leaves, "" for none
	}{
		{"flipped bit, CRC unchanged", inboxFlipped, false, 0, inbox.ChecksumMismatch},
		{"type not decoded", inboxUnknownType, false, 0, "message type 0xfe not decoded"},
		{"sound fix", inboxFix, true, 1, ""},
		{"sound fix, resent", inboxFix, true, 1, ""},
		// The fix dated 2099 (a broken clock): acknowledged, since a resend
		// would not make it possible, but not stored, and shown.
		{"impossible fix", inboxOld, true, 1, "position dropped as impossible: fix time 2099-10-20T14:21:11Z, latitude 54.945347, longitude 24.017622 (off the globe, before 2000 or more than a day ahead)"},
	}
	for _, s := range steps {
		before := len(frames(inbox.Filter{DeviceID: d.ID}))
		got := send(c, s.frame)
		if (got != "") != s.answered || s.answered && got[:len(inboxAck)] != inboxAck {
			t.Errorf("%s: answer %q, want answered %v", s.name, got, s.answered)
		}
		if n := stored(); n != s.stored {
			t.Errorf("%s: %d positions stored, want %d", s.name, n, s.stored)
		}
		list := frames(inbox.Filter{DeviceID: d.ID})
		switch {
		case s.reason == "" && len(list) != before:
			t.Errorf("%s: inbox grew: %+v", s.name, list[0])
		case s.reason != "" && (len(list) != before+1 || list[0].Reason != s.reason || list[0].Hex != s.frame ||
			list[0].UniqueID != imei || list[0].Length != len(s.frame)/2):
			t.Errorf("%s: inbox = %+v, want a %q entry", s.name, list, s.reason)
		}
	}

	// Once the device is marked, a frame with a bad checksum is taken.
	if _, err := core.Fleet.Devices.Update(admin, d.ID, func(d *model.Device) error {
		d.Attributes = model.Attributes{ingest.IgnoreChecksum: true}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := send(c, inboxFlipped); !bytes.HasPrefix([]byte(got), []byte(inboxAck)) {
		t.Fatalf("marked device's frame answered %q, want the ACK", got)
	}
	if n := stored(); n != 2 {
		t.Fatalf("%d positions after the marked frame, want 2", n)
	}

}

// UDP packets and OsmAnd's HTTP requests reach the inbox as stream frames
// do: an unknown id over UDP, then over HTTP, then a request that does
// not decode.
func TestInboxOtherTransports(t *testing.T) {
	core, admin, l := listening(t, "h02", "osmand")

	udp, err := net.Dial("udp", l.Addrs["h02"].String())
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	packet := "*HQ,4210051415,V1,213324,A,5002.5849,N,01433.7822,E,0.00,000,140613,FFFFFFFF#"
	udp.Write([]byte(packet))
	osmand := "http://" + l.Addrs["osmand"].String()
	for _, target := range []string{"/?id=777&lat=60&lon=30&timestamp=1377177267", "/?id=777&lat=north&lon=30"} {
		resp, err := http.Get(osmand + target)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}

	want := map[string]string{ // hex of the frame -> reason
		hex.EncodeToString([]byte(packet)):                                              inbox.UnknownDevice,
		hex.EncodeToString([]byte("GET /?id=777&lat=60&lon=30&timestamp=1377177267\n")): inbox.UnknownDevice,
	}
	var list []inbox.Frame
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if list, _ = core.Ingest.Frames(admin, inbox.Filter{}); len(list) == 3 {
			break // the UDP packet is handled off the sender's path
		}
	}
	if len(list) != 3 {
		t.Fatalf("inbox = %+v, want 3 frames", list)
	}
	for _, f := range list {
		if reason, ok := want[f.Hex]; ok && f.Reason != reason {
			t.Errorf("frame %s: reason %q, want %q", f.Hex, f.Reason, reason)
		} else if !ok && !strings.HasPrefix(f.Reason, "not decoded: ") {
			t.Errorf("frame %s (%s): reason %q, want not decoded", f.Hex, f.Protocol, f.Reason)
		}
	}
}

// listening starts the protocols' listeners, with the raw-frame inbox's
// tap, on a core with a fresh store and its administrator.
func listening(t *testing.T, names ...string) (*app.Core, *model.User, *catalog.Listening) {
	t.Helper()
	core := app.New(storagetest.Open(t), app.Options{BcryptCost: 4})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "secret")
	if err != nil {
		t.Fatal(err)
	}
	ports := map[string]int{}
	for _, name := range names {
		ports[name] = 0
	}
	l, err := catalog.Start("127.0.0.1", ports, core.Ingest, protocols.Options{Tap: core.Ingest.Tap})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return core, admin, l
}
