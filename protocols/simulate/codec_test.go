package simulate

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/protocols/osmand"
)

// precision is what a protocol's encoding keeps of a fix: the largest
// rounding error in knots and degrees, and whether it carries ignition.
type precision struct {
	speed, course float64
	ignition      bool
	odometer      bool
}

const halfKmh = 0.5 * knotsPerKmh

// cpsKnots is one cm/s in knots.
const cpsKnots = 0.0194384449

var precisions = map[string]precision{
	"gt06":      {speed: halfKmh, course: 0.5, ignition: true}, // integer km/h and degrees
	"teltonika": {speed: halfKmh, course: 0.5, ignition: true, odometer: true},
	"h02":       {speed: 0.005, course: 0.5, ignition: true},              // knots %.2f, integer course
	"gps103":    {speed: 0.005, course: 0.005, ignition: true},            // knots and course %.2f
	"gl200":     {speed: 0.05 * knotsPerKmh, course: 0.5, ignition: true}, // km/h %.1f, integer course, odometer in 100 m
	"jt600":     {speed: 0.005 / mphPerKmh * knotsPerKmh, course: 0.5},    // mph %.2f, integer course
	"eelink":    {speed: halfKmh, course: 0.5, ignition: true, odometer: true},
	"ruptela":   {speed: halfKmh, course: 0.005, ignition: true, odometer: true}, // integer km/h, course 0.01
	"castel":    {speed: 0.5 * cpsKnots, course: 0.05, odometer: true},           // integer cm/s, course 0.1
	"jt808":     {speed: 0.05 * knotsPerKmh, course: 0.5, ignition: true},        // 0.1 km/h, integer course; odometer in 0.1 km
	"tk103":     {speed: 0.05 * knotsPerKmh, course: 0.005, ignition: true, odometer: true},
	"meitrack":  {speed: halfKmh, course: 0.5, odometer: true},                                // integer km/h and degrees
	"meiligao":  {speed: 0.005, course: 0.005, odometer: true},                                // knots and course %.2f
	"watch":     {speed: 0.005 * knotsPerKmh, course: 0.05},                                   // km/h %.2f, course %.1f
	osmandName:  {speed: 0.005, course: 0.05, ignition: true},                                 // knots %.2f, bearing %.1f
	"suntech":   {speed: 0.0005 * knotsPerKmh, course: 0.005, ignition: true, odometer: true}, // km/h %.3f, course %.2f
	"wialon":    {speed: 0.005 * knotsPerKmh, course: 0.005, odometer: true},                  // km/h and course %.2f
	"trv":       {speed: 0.05 * knotsPerKmh, course: 0.005, ignition: true},                   // km/h %05.1f, course %06.2f
	"t55":       {speed: 0.005, course: 0.005},                                                // knots and course %.2f
}

// testFixes are route fixes from every city (all four hemispheres) plus
// edge cases: standing still, due north, almost 360, top speed, near the
// equator and the prime meridian on the negative side.
func testFixes() []Fix {
	base := time.Date(2026, 3, 1, 23, 59, 30, 0, time.UTC)
	var fixes []Fix
	for seed := range int64(len(Cities)) {
		r := NewRoute(seed, DefaultFirstID+seed)
		for range 12 {
			f := r.Next(7 * time.Second)
			f.Time = base.Add(time.Duration(len(fixes)) * 7 * time.Second)
			fixes = append(fixes, f)
		}
	}
	edges := []Fix{
		{Lat: 0.0000049, Lon: -0.0000051, Speed: 0, Course: 0, Ignition: false},
		{Lat: -0.5, Lon: -0.25, Speed: 90, Course: 359.4, Ignition: true, Odometer: 123456.7},
		{Lat: 89.99999, Lon: 179.99999, Speed: 1, Course: 180, Ignition: true},
		{Lat: -89.99999, Lon: -179.99999, Speed: 45.5, Course: 90.25, Ignition: true},
	}
	for i := range edges {
		edges[i].Time = time.Date(2031, 12, 31, 23, 59, 59, 0, time.UTC).Add(-time.Duration(i) * time.Hour)
	}
	return append(fixes, edges...)
}

// angleDiff is the difference between two courses, across north.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return min(d, 360-d)
}

func number(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	t.Fatalf("attribute %v (%T) is not a number", v, v)
	return 0
}

// checkFix compares a decoded position with the fix it was built from.
func checkFix(t *testing.T, name string, f Fix, p *model.Position) {
	t.Helper()
	prec := precisions[name]
	if !p.FixTime.Equal(f.Time) || p.Outdated || !p.Valid {
		t.Errorf("fixTime %v outdated %v valid %v, want %v, fresh and valid", p.FixTime, p.Outdated, p.Valid, f.Time)
	}
	if math.Abs(p.Latitude-f.Lat) > 1e-5 || math.Abs(p.Longitude-f.Lon) > 1e-5 {
		t.Errorf("location %.7f,%.7f, want %.7f,%.7f", p.Latitude, p.Longitude, f.Lat, f.Lon)
	}
	if want := f.Speed * knotsPerKmh; math.Abs(p.Speed-want) > prec.speed+1e-4 {
		t.Errorf("speed %.4f kn, want %.4f (within %.4f)", p.Speed, want, prec.speed)
	}
	if d := angleDiff(p.Course, f.Course); d > prec.course+1e-9 {
		t.Errorf("course %v, want %v (within %v)", p.Course, f.Course, prec.course)
	}
	if prec.ignition && p.Attributes["ignition"] != f.Ignition {
		t.Errorf("ignition %v, want %v", p.Attributes["ignition"], f.Ignition)
	}
	if prec.odometer {
		if got := number(t, p.Attributes["odometer"]); math.Abs(got-f.Odometer) > 0.5 {
			t.Errorf("odometer %v, want %v", got, f.Odometer)
		}
	}
}

// streams are the server-side decoders, from the catalog fleetd serves.
func streams() map[string]protocols.Stream {
	out := map[string]protocols.Stream{}
	for _, e := range catalog.All() {
		if e.Stream != nil {
			out[e.Name] = e.Stream
		}
	}
	return out
}

func TestCodecsCoverTheCatalog(t *testing.T) {
	for _, e := range catalog.All() {
		if _, ok := codecs[e.Name]; !ok && e.Name != osmandName {
			t.Errorf("no simulated device for %s", e.Name)
		}
		if got := DefaultPort(e.Name); got != e.DefaultPort {
			t.Errorf("DefaultPort(%s) = %d, want %d", e.Name, got, e.DefaultPort)
		}
	}
	if len(Protocols()) != len(catalog.All()) {
		t.Errorf("Protocols() = %v, catalog has %d", Protocols(), len(catalog.All()))
	}
}

// TestCodecsRoundTrip decodes every frame a simulated device sends with the
// decoder fleetd runs, and reads the decoder's answers back with the
// device's reply parser.
func TestCodecsRoundTrip(t *testing.T) {
	const imei = DefaultFirstID + 4242
	for name, stream := range streams() {
		t.Run(name, func(t *testing.T) {
			c := codecs[name]
			id := c.id(imei)
			conn := &protocols.Conn{}
			if login := c.login(id, 1); login != nil {
				res := decode(t, stream, conn, login)
				if res.UniqueID != id {
					t.Fatalf("login identifies %q, want %q", res.UniqueID, id)
				}
				if len(res.Positions) != 0 {
					t.Errorf("login yields %d positions", len(res.Positions))
				}
				if _, silent := c.(silentLogin); silent {
					if len(res.Reply)+len(res.Ack) != 0 {
						t.Errorf("login answered with %q, but the codec says %q", append(res.Reply, res.Ack...), c.(silentLogin).silentLogin())
					}
				} else {
					checkCut(t, c, append(res.Reply, res.Ack...), false, replyLogin, -1)
				}
				conn.UniqueID = id
			} else if res := decode(t, stream, conn, c.position(id, testFixes()[0], 1)); res.UniqueID != id {
				t.Fatalf("a protocol without login: positions identify %q, want %q", res.UniqueID, id)
			}

			for i, f := range testFixes() {
				serial := uint16(i + 2)
				res := decode(t, stream, conn, c.position(id, f, serial))
				if len(res.Positions) != 1 {
					t.Fatalf("fix %d: %d positions, want 1", i, len(res.Positions))
				}
				checkFix(t, name, f, res.Positions[0])
				if res.UniqueID != "" && res.UniqueID != id {
					t.Errorf("fix %d names %q, want %q", i, res.UniqueID, id)
				}
				if c.noAck() != "" {
					if len(res.Ack) != 0 {
						t.Errorf("fix %d: server acknowledges with %q, but the codec says %q", i, res.Ack, c.noAck())
					}
					if len(res.Reply) > 0 {
						checkCut(t, c, res.Reply, true, replyOther, -1)
					}
					continue
				}
				wantSerial := -1
				if name == "gt06" || name == "gl200" || name == "eelink" || name == "jt808" { // the ACK echoes the frame's serial
					wantSerial = int(serial)
				}
				checkCut(t, c, res.Ack, true, replyAck, wantSerial)
			}
		})
	}
}

// decode splits frame with the protocol's Split (which must return it
// whole) and decodes it.
func decode(t *testing.T, s protocols.Stream, conn *protocols.Conn, frame []byte) protocols.Result {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(frame))
	sc.Split(s.Split)
	if !sc.Scan() || !bytes.Equal(sc.Bytes(), frame) {
		t.Fatalf("Split does not return the frame %q whole (got %q, err %v)", frame, sc.Bytes(), sc.Err())
	}
	res, err := s.Decode(conn, sc.Bytes())
	if err != nil {
		t.Fatalf("decode %q: %v", frame, err)
	}
	if res.ChecksumError {
		t.Fatalf("checksum error in %x", frame)
	}
	return res
}

// checkCut reads a server answer with the device's parser: it must be
// consumed whole and classified as want.
func checkCut(t *testing.T, c codec, answer []byte, loggedIn bool, want replyKind, serial int) {
	t.Helper()
	if len(answer) == 0 {
		t.Fatalf("the server sends nothing, want a reply of kind %d", want)
	}
	r := c.cut(answer, loggedIn)
	if r.n != len(answer) || r.kind != want || r.serial != serial {
		t.Errorf("cut(%q) = %+v, want all %d bytes, kind %d, serial %d", answer, r, len(answer), want, serial)
	}
}

// TestCodecsStream sends login and positions back to back, as on a
// connection: Split must find every frame boundary.
func TestCodecsStream(t *testing.T) {
	for name, stream := range streams() {
		t.Run(name, func(t *testing.T) {
			c := codecs[name]
			id := c.id(DefaultFirstID)
			var frames [][]byte
			if login := c.login(id, 1); login != nil {
				frames = append(frames, login)
			}
			for i, f := range testFixes()[:10] {
				frames = append(frames, c.position(id, f, uint16(i+2)))
			}
			sc := bufio.NewScanner(bytes.NewReader(bytes.Join(frames, nil)))
			sc.Split(stream.Split)
			for i := 0; sc.Scan(); i++ {
				if i >= len(frames) || !bytes.Equal(sc.Bytes(), frames[i]) {
					t.Fatalf("token %d = %q, want frame %d", i, sc.Bytes(), i)
				}
				frames[i] = nil
			}
			if frames[len(frames)-1] != nil {
				t.Errorf("not every frame was split out (err %v)", sc.Err())
			}
		})
	}
}

func TestOsmandRoundTrip(t *testing.T) {
	id := imeiText(DefaultFirstID + 1)
	for i, f := range testFixes() {
		uid, positions, err := osmand.Decode("POST", "", osmandQuery(id, f), nil, time.Now())
		if err != nil || uid != id || len(positions) != 1 {
			t.Fatalf("fix %d: decode = %q, %d positions, %v", i, uid, len(positions), err)
		}
		checkFix(t, osmandName, f, positions[0])
	}
}

// TestRealFrames: for frames whose every field we choose, the builders
// reproduce frames captured from real devices (samples.md).
func TestRealFrames(t *testing.T) {
	tests := []struct {
		name, protocol, id string
		serial             uint16
		want               string
	}{
		{"gt06 login", "gt06", "864717003283581", 9, "78780d01086471700328358100093f040d0a"},
		{"teltonika imei", "teltonika", "123456789012345", 0, "000f313233343536373839303132333435"},
		// Traccar's capture without the data after the command (CRC by Python).
		{"ruptela identification", "ruptela", "869530043209218", 0, "0009000316d53d58d6020f3c6a"},
		{"tk103 handshake", "tk103", "087073005534", 0, hex.EncodeToString([]byte("(087073005534BP00HSO)"))},
		{"gl200 heartbeat", "gl200", "135790246811220", 0x11F0, hex.EncodeToString([]byte("+ACK:GTHBD,060100,135790246811220,,20260101000000,11F0$"))},
		{"meiligao login (Traccar's test frame)", "meiligao", "67144025885540", 0, "24240011671440258855405000b24d0d0a"},
		{"watch link", "watch", "4700186508", 0, hex.EncodeToString([]byte("[3G*4700186508*0002*LK]"))},
		{"wialon login (2.0, CRC over the message)", "wialon", "42001300083", 0, hex.EncodeToString([]byte("#L#2.0;42001300083;NA;F26E\r\n"))},
		{"trv login", "trv", "353456789012345", 0, hex.EncodeToString([]byte("IWAP00353456789012345#"))},
		{"t55 $PGID", "t55", "359853000144328", 0, hex.EncodeToString([]byte("$PGID,359853000144328*0F\r\n"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hex.EncodeToString(codecs[tt.protocol].login(tt.id, tt.serial)); got != tt.want {
				t.Errorf("login = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestCRC16 checks both parameter sets against the catalogue check value
// (CRC of "123456789").
func TestCRC16(t *testing.T) {
	tests := []struct {
		name               string
		poly, init, xorout uint16
		want               uint16
	}{
		{"X-25", 0x8408, 0xFFFF, 0xFFFF, 0x906E},
		{"ARC", 0xA001, 0, 0, 0xBB3D},
		{"KERMIT", 0x8408, 0, 0, 0x2189},
	}
	for _, tt := range tests {
		if got := crc16([]byte("123456789"), tt.poly, tt.init, tt.xorout); got != tt.want {
			t.Errorf("%s = %#04x, want %#04x", tt.name, got, tt.want)
		}
	}
}

func TestUniqueID(t *testing.T) {
	tests := []struct {
		protocol string
		imei     int64
		want     string
		ok       bool
	}{
		{"gt06", 860000000000042, "860000000000042", true},
		{"osmand", 12345, "000000000012345", true},
		{"tk103", 860000000000042, "000000000042", true},
		{"tk103", 123456789012345, "456789012345", true},
		{"gt06", MaxIMEI + 1, "", false},
		{"gt06", -1, "", false},
		{"nope", 1, "", false},
	}
	for _, tt := range tests {
		got, err := UniqueID(tt.protocol, tt.imei)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("UniqueID(%s, %d) = %q, %v; want %q, ok %v", tt.protocol, tt.imei, got, err, tt.want, tt.ok)
		}
	}
}

// TestCutPartialAndGarbage feeds answers byte by byte after junk: the
// parsers must wait for whole messages and never stall on garbage.
func TestCutPartialAndGarbage(t *testing.T) {
	const imei = DefaultFirstID + 7
	for name, stream := range streams() {
		t.Run(name, func(t *testing.T) {
			c := codecs[name]
			id := c.id(imei)
			if frame := c.login(id, 1); frame != nil {
				res := decode(t, stream, &protocols.Conn{}, frame)
				login := append(res.Reply, res.Ack...)
				for n := 1; n < len(login); n++ {
					if r := c.cut(login[:n], false); r.kind == replyLogin {
						t.Fatalf("a login answer cut at %d bytes is taken as complete", n)
					}
				}
			} else if c.noAck() == "" {
				ack := decode(t, stream, &protocols.Conn{}, c.position(id, testFixes()[0], 2)).Ack
				for n := 1; n < len(ack); n++ {
					if r := c.cut(ack[:n], true); r.kind == replyAck {
						t.Fatalf("an ACK cut at %d bytes is taken as complete", n)
					}
				}
			}
			// Only the last few bytes, which might begin an answer, may be
			// held back waiting for more.
			junk := bytes.Repeat([]byte{0xFE}, 5000)
			buf := junk
			for rounds := 0; len(buf) >= 16; rounds++ {
				r := c.cut(buf, true)
				if r.n <= 0 || r.kind != replyOther || rounds > len(junk) {
					t.Fatalf("cut on garbage = %+v with %d bytes left", r, len(buf))
				}
				buf = buf[r.n:]
			}
		})
	}
}
