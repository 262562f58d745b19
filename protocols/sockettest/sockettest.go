// Package sockettest runs a protocol the way a tracker meets it: a real
// listener on 127.0.0.1 backed by a real core and store (a bbolt file in
// the test's temporary directory), frames sent as wire bytes over TCP or
// UDP, the replies read back from the socket and the positions read back
// from the store. Protocol packages use it from their tests to check
// device frames end to end. It is imported from _test.go files only.
package sockettest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/storage"
)

// Env is one protocol's listener on a fresh store.
type Env struct {
	t     testing.TB
	Core  *app.Core
	Proto protocols.Stream
	srv   *protocols.Server
	admin *model.User
}

// Start listens with p on 127.0.0.1:0 in front of a new core and store.
func Start(t testing.TB, p protocols.Stream) *Env {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	core := app.New(db, app.Options{BcryptCost: 4, CommandTypes: map[string][]string{p.Name(): p.CommandTypes()}})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "a long passphrase")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := protocols.Listen(p, "127.0.0.1:0", core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); db.Close() })
	return &Env{t: t, Core: core, Proto: p, srv: srv, admin: admin}
}

// Device registers a device with uniqueId id and attributes (nil: none),
// such as ignoreChecksum or a protocol's model setting.
func (e *Env) Device(id, deviceModel string, attrs model.Attributes) *model.Device {
	e.t.Helper()
	d, err := e.Core.Fleet.Devices.Create(e.admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.Model = id, id, deviceModel
		if attrs != nil {
			d.Attributes = maps.Clone(attrs)
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// Conn is one device's connection.
type Conn struct {
	e  *Env
	nc net.Conn
}

// Dial opens a TCP connection to the listener.
func (e *Env) Dial() *Conn { return e.dial("tcp") }

// DialUDP opens a UDP "connection" to the listener (a datagram protocol).
func (e *Env) DialUDP() *Conn { return e.dial("udp") }

func (e *Env) dial(network string) *Conn {
	e.t.Helper()
	nc, err := net.Dial(network, e.srv.Addr().String())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { nc.Close() })
	return &Conn{e: e, nc: nc}
}

// Close hangs up, as a device that goes away.
func (c *Conn) Close() { c.nc.Close() }

// Send writes wire bytes.
func (c *Conn) Send(wire []byte) {
	c.e.t.Helper()
	c.nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.nc.Write(wire); err != nil {
		c.e.t.Fatalf("send %x: %v", wire, err)
	}
}

// Expect reads exactly want from the socket (within 5 s).
func (c *Conn) Expect(want []byte) {
	c.e.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	got := make([]byte, len(want))
	var n int
	var err error
	if _, isUDP := c.nc.(*net.UDPConn); isUDP {
		buf := make([]byte, 64<<10)
		n, err = c.nc.Read(buf)
		got = buf[:n]
	} else {
		n, err = io.ReadFull(c.nc, got)
		got = got[:n]
	}
	if err != nil || !bytes.Equal(got, want) {
		c.e.t.Fatalf("reply %s (%v), want %s", show(got), err, show(want))
	}
}

// Silent checks that nothing arrives for a while: a frame that must not be
// answered (not stored, not decoded).
func (c *Conn) Silent(wait time.Duration) {
	c.e.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(wait))
	buf := make([]byte, 512)
	if n, err := c.nc.Read(buf); n > 0 {
		c.e.t.Fatalf("unexpected reply %s (%v)", show(buf[:n]), err)
	}
}

// show prints bytes as text when they are, else as hex.
func show(b []byte) string {
	for _, c := range b {
		if (c < 0x20 && c != '\r' && c != '\n') || c > 0x7e {
			return hex.EncodeToString(b)
		}
	}
	return fmt.Sprintf("%q", b)
}

// Want is what one stored position must hold. Attributes lists the ones
// the frame carries with Traccar's names and values; the store holds more
// (distance, totalDistance, motion, ...), which are not compared. Values
// compare by their JSON (an int64 10 equals a stored 10).
type Want struct {
	Time           time.Time // fix time; zero: not compared (a frame without one)
	Valid          bool
	Outdated       bool
	Lat, Lon       float64 // within 1e-5 degrees
	Speed          float64 // knots, within SpeedTolerance
	Course         float64 // within 0.01
	Altitude       *float64
	Attributes     model.Attributes
	SpeedTolerance float64
}

// WaitStored waits until the device has n positions stored and returns
// them in the order they were stored.
func (e *Env) WaitStored(deviceID int64, n int) []*model.Position {
	e.t.Helper()
	var ps []*model.Position
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var err error
		ps, err = e.Core.Fleet.Positions(e.admin, fleet.PositionQuery{DeviceID: deviceID,
			From: time.Unix(0, 0), To: time.Now().Add(100 * 365 * 24 * time.Hour)})
		if err != nil {
			e.t.Fatal(err)
		}
		if len(ps) >= n || time.Now().After(deadline) {
			break
		}
	}
	if len(ps) != n {
		e.t.Fatalf("%d positions stored, want %d", len(ps), n)
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	return ps
}

// Check compares a stored position with w, reporting every difference.
func Check(t testing.TB, p *model.Position, w Want) {
	t.Helper()
	var diffs []string
	if !w.Time.IsZero() && !p.FixTime.Equal(w.Time) {
		diffs = append(diffs, fmt.Sprintf("fixTime %v, want %v", p.FixTime.UTC(), w.Time.UTC()))
	}
	if p.Valid != w.Valid || p.Outdated != w.Outdated {
		diffs = append(diffs, fmt.Sprintf("valid %v outdated %v, want %v %v", p.Valid, p.Outdated, w.Valid, w.Outdated))
	}
	if !w.Outdated && (math.Abs(p.Latitude-w.Lat) > 1e-5 || math.Abs(p.Longitude-w.Lon) > 1e-5) {
		diffs = append(diffs, fmt.Sprintf("lat/lon %v %v, want %v %v", p.Latitude, p.Longitude, w.Lat, w.Lon))
	}
	if math.Abs(p.Speed-w.Speed) > w.SpeedTolerance || math.Abs(p.Course-w.Course) > 0.01 {
		diffs = append(diffs, fmt.Sprintf("speed %v course %v, want %v %v", p.Speed, p.Course, w.Speed, w.Course))
	}
	if w.Altitude != nil && math.Abs(p.Altitude-*w.Altitude) > 0.01 {
		diffs = append(diffs, fmt.Sprintf("altitude %v, want %v", p.Altitude, *w.Altitude))
	}
	for _, k := range slices.Sorted(maps.Keys(w.Attributes)) {
		got, _ := json.Marshal(p.Attributes[k])
		want, _ := json.Marshal(w.Attributes[k])
		if _, ok := p.Attributes[k]; !ok || !bytes.Equal(got, want) {
			diffs = append(diffs, fmt.Sprintf("attribute %s = %s, want %s", k, got, want))
		}
	}
	for _, d := range diffs {
		t.Errorf("position %d: %s", p.ID, d)
	}
}
