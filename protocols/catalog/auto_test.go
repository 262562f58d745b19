package catalog

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/storage"
)

// recognizer is one protocol as the shared port asks it.
type recognizer struct {
	name      string
	recognize func([]byte) protocols.Recognition
	datagram  func([]byte) bool // nil: no UDP
}

func recognizers() []recognizer {
	var out []recognizer
	for _, p := range autoProtocols() {
		r := recognizer{name: nameOf(p)}
		r.recognize, r.datagram = p.Recognizers()
		out = append(out, r)
	}
	return out
}

func nameOf(p protocols.AutoProtocol) string {
	if p.Stream != nil {
		return p.Stream.Name()
	}
	return p.HTTP.Name()
}

// sample is one frame of testdata/samples.
type sample struct {
	protocol, kind string
	data           []byte
}

func samples(t testing.TB) []sample {
	files, err := filepath.Glob(filepath.Join("testdata", "samples", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	var out []sample
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			kind, h, _ := strings.Cut(line, " ")
			b, err := hex.DecodeString(h)
			if err != nil || (kind != "open" && kind != "after" && kind != "udp") {
				t.Fatalf("%s: bad line %q", f, line)
			}
			out = append(out, sample{name, kind, b})
		}
	}
	return out
}

// Every sample frame is its own protocol's and no other's: one that may
// open a connection is recognised (whole, and NeedMore for each shorter
// head), one that follows an identification is at least no other
// protocol's, and a datagram is recognised as its protocol's alone.
func TestRecognizeSamples(t *testing.T) {
	recs := recognizers()
	covered := map[string]bool{}
	for _, s := range samples(t) {
		covered[s.protocol] = true
		for _, r := range recs {
			own := r.name == s.protocol
			if s.kind == "udp" {
				if r.datagram != nil && r.datagram(s.data) != own {
					t.Errorf("%s datagram %s: %s says %v", s.protocol, show(s.data), r.name, !own)
				}
				continue
			}
			got := r.recognize(s.data)
			switch {
			case own && s.kind == "open" && got != protocols.Mine:
				t.Errorf("%s frame %s not recognised (%d)", s.protocol, show(s.data), got)
			case !own && got == protocols.Mine:
				t.Errorf("%s frame %s recognised as %s", s.protocol, show(s.data), r.name)
			}
			if own && s.kind == "open" {
				for n := range len(s.data) {
					if got := r.recognize(s.data[:n]); got == protocols.NotMine {
						t.Errorf("%s: the first %d bytes of %s are refused", s.protocol, n, show(s.data))
						break
					}
				}
			}
		}
	}
	for _, r := range recs {
		if !covered[r.name] {
			t.Errorf("no samples of %s in testdata/samples", r.name)
		}
	}
}

// show prints a frame as text when it is, else as hex.
func show(b []byte) string { return printable(b) }

// identifies tells a sample frame that names its device and whose
// checksum holds (some of Traccar's samples have wrong ones: their device
// would have to be marked to be heard).
func identifies(s sample) bool {
	for _, e := range All() {
		if e.Name != s.protocol || e.Stream == nil {
			continue
		}
		var res protocols.Result
		var err error
		if dg, ok := e.Stream.(protocols.Datagram); ok && s.kind == "udp" {
			res, err = dg.DecodeDatagram(&protocols.Conn{}, s.data)
		} else {
			_, token, _ := e.Stream.Split(s.data, true)
			res, err = e.Stream.Decode(&protocols.Conn{}, token)
		}
		return err == nil && res.UniqueID != "" && !res.ChecksumError
	}
	return true // osmand: the request names it
}

// autoEnv is a core and store behind the shared port alone.
func autoEnv(t *testing.T) (*app.Core, *Listening, *model.User) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	core := app.New(db, app.Options{BcryptCost: 4, CommandTypes: CommandTypes()})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "a long passphrase")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Start("127.0.0.1", map[string]int{protocols.AutoName: 0}, core.Ingest, protocols.Options{Tap: core.Ingest.Tap})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(); db.Close() })
	return core, l, admin
}

// Through the shared port, each protocol's opening frames reach that
// protocol: the ids they carry are listed as unknown devices of it. Bytes
// no protocol takes land in the raw-frame inbox as the shared port's.
func TestAutoPortHandsOn(t *testing.T) {
	core, l, admin := autoEnv(t)
	addr := l.Addrs[protocols.AutoName].String()
	sent := map[string]bool{}
	for _, s := range samples(t) {
		if s.kind == "after" || sent[s.protocol] && s.protocol != "osmand" || !identifies(s) {
			continue
		}
		sent[s.protocol] = true
		network := "tcp"
		if s.kind == "udp" {
			network = "udp"
		}
		c, err := net.Dial(network, addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write(s.data)
		// Close once the server has read it: a reply or a quiet second.
		c.SetReadDeadline(time.Now().Add(time.Second))
		bufio.NewReader(c).ReadByte()
		c.Close()
	}
	want := map[string]bool{}
	for p := range sent {
		if p != "osmand" { // a request without a device id
			want[p] = true
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		unknown, err := core.Ingest.UnknownDevices(admin)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, u := range unknown {
			got[u.Protocol] = true
		}
		missing := []string{}
		for p := range want {
			if !got[p] {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			slices.Sort(missing)
			t.Fatalf("no unknown device reached %v through the shared port (got %v)", missing, unknown)
		}
	}

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("SSH-2.0-OpenSSH_9.2\r\n"))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, _ := c.Read(make([]byte, 1)); n != 0 {
		t.Error("an SSH client got an answer")
	}
	c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		frames, err := core.Ingest.Frames(admin, inbox.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(frames, func(f inbox.Frame) bool { return f.Protocol == protocols.AutoName })
		if i >= 0 {
			if f := frames[i]; f.Reason != protocols.Unrecognized || !strings.Contains(f.Hex, hex.EncodeToString([]byte("SSH-2.0"))) {
				t.Errorf("inbox entry %+v", f)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the SSH client's bytes are not in the inbox")
		}
	}
}

// Bytes the shared port read past the first frame reach the protocol too:
// a login and a fix in one write are both answered, the fix once stored.
func TestAutoPortKeepsTheRestOfTheHead(t *testing.T) {
	core, l, admin := autoEnv(t)
	if _, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "t", "864717003283581"; return nil }); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", l.Addrs[protocols.AutoName].String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	login, _ := hex.DecodeString("78780D01086471700328358100093F040D0A")
	fix, _ := hex.DecodeString("78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a")
	c.Write(append(login, fix...))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	want, _ := hex.DecodeString("78780501000955940d0a" + "787805120003903f0d0a")
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("replies %x (%v), want %x", got, err, want)
	}
}
