package protocols_test

import (
	"encoding/hex"
	"io"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// garbageSessions are real frames of each TCP protocol: what a device
// sends from connecting to its first fix.
var garbageSessions = map[string]string{
	"gt06": hexText("78780D01086471700328358100093F040D0A" +
		"78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a"),
	"teltonika": hexText("000F313233343536373839303132333435" +
		"000000000000004508010000015eb70a86d00024089d4d21dee3860137005f12005f000e06ef01f00150011503c800450108b5000bb6000642382718005fcd057ace19d3430f57440000000001000002bf"),
	"h02":    "*HQ,2705171109,V1,213324,A,5002.5849,N,01433.7822,E,0.00,000,140613,FFFFFFFF#",
	"watch":  "[SG*8800000015*0087*UD,220414,134652,A,22.571707,N,113.8613968,E,0.1,0.0,100,7,60,90,1000,50,0000,4,1,460,0,9360,4082,131,9360,4092,148,9360,4091,143,9360,4153,141]",
	"tk103":  "(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)",
	"gps103": "##,imei:359710045559474,A;imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;",
}

func hexText(s string) string {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestCorruptFramesStoreNoGarbage replays each protocol's session with a
// few random bytes overwritten, one connection per session, against real
// listeners with auto-registration on: whatever decodes, no device gets a
// malformed id and no stored position holds an impossible value. It logs
// what it saw; FLEETD_GARBAGE_SESSIONS (per protocol, default 150) runs it
// longer:
//
//	FLEETD_GARBAGE_SESSIONS=3000 go test -run TestCorruptFramesStoreNoGarbage -v ./protocols/
func TestCorruptFramesStoreNoGarbage(t *testing.T) {
	sessions := 150
	if s := os.Getenv("FLEETD_GARBAGE_SESSIONS"); s != "" {
		var err error
		if sessions, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	db := storagetest.Open(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	core := app.New(db, app.Options{BcryptCost: 4, Ingest: ingest.Options{AutoRegister: true}, Logger: quiet})
	ports := map[string]int{}
	for name := range garbageSessions {
		ports[name] = 0
	}
	l, err := catalog.Start("127.0.0.1", ports, core.Ingest, protocols.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })

	rng := rand.New(rand.NewPCG(11, 6))
	for _, name := range slices.Sorted(maps.Keys(garbageSessions)) { // the same bytes every run
		for range sessions {
			b := []byte(garbageSessions[name])
			for range 1 + rng.IntN(4) {
				b[rng.IntN(len(b))] = byte(rng.UintN(256))
			}
			replay(t, l.Addrs[name].String(), b)
		}
	}

	devices, err := core.Fleet.Devices.List(model.System(), model.Query{All: true})
	if err != nil {
		t.Fatal(err)
	}
	var badIDs, positions, badValues int
	for _, d := range devices {
		if !wellFormedID(d.UniqueID) {
			badIDs++
			t.Errorf("device registered with id %q", d.UniqueID)
		}
		ps, err := core.Fleet.Positions(model.System(), fleet.PositionQuery{DeviceID: d.ID, From: time.Unix(0, 0), To: time.Now().Add(48 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		positions += len(ps)
		for _, p := range ps {
			for field, v := range impossible(p) {
				badValues++
				t.Errorf("%s position %d stored %s = %v", p.Protocol, p.ID, field, v)
			}
		}
	}
	var removed uint64
	for _, n := range core.Stats().FieldsRemoved {
		removed += n
	}
	t.Logf("%d sessions per protocol: %d devices registered (%d with malformed ids, %d ids refused), %d positions stored (%d impossible values stored, %d removed)",
		sessions, len(devices), badIDs, core.Stats().InvalidIDs, positions, badValues, removed)
}

// replay sends b on a connection of its own and waits until the server has
// handled it (it closes the connection after the device's end of stream).
func replay(t *testing.T, addr string, b []byte) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	conn.Write(b)
	conn.(*net.TCPConn).CloseWrite()
	if _, err := io.Copy(io.Discard, conn); err != nil {
		t.Fatalf("waiting for the server to finish: %v", err)
	}
}

// wellFormedID is the test's own statement of the identifier rule. The
// store keeps ids as JSON, which turns bytes that are not UTF-8 into U+FFFD.
func wellFormedID(id string) bool {
	if id == "" || !utf8.ValidString(id) || strings.ContainsRune(id, utf8.RuneError) || utf8.RuneCountInString(id) > 128 {
		return false
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// impossible lists the values of p that no tracker can measure, by the
// limits docs/devices.md gives for the fields the issue saw spoiled.
func impossible(p *model.Position) map[string]any {
	out := map[string]any{}
	outside := func(field string, v, lo, hi float64) {
		if !(v >= lo && v <= hi) {
			out[field] = v
		}
	}
	outside("speed", p.Speed, 0, 1000)
	outside("course", p.Course, 0, 360)
	outside("altitude", p.Altitude, -1000, 50000)
	for key, lim := range map[string][2]float64{"batteryLevel": {0, 100}, "sat": {0, 200}, "rssi": {-150, 255}, "power": {0, 1000}} {
		if v, ok := p.Attributes[key].(float64); ok {
			outside(key, v, lim[0], lim[1])
		}
	}
	for key, v := range p.Attributes {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			out[key] = f
		}
	}
	return out
}
