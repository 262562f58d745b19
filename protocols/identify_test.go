package protocols_test

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// With auto-registration on, frames of real protocols whose device id is
// garbage (control bytes, invalid UTF-8, an escape sequence) create no
// device and get no answer; a sound id on the same connection registers.
func TestGarbageIDsRegisterNothing(t *testing.T) {
	db := storagetest.Open(t)
	core := app.New(db, app.Options{BcryptCost: 4, Ingest: ingest.Options{AutoRegister: true}})
	l, err := catalog.Start("127.0.0.1", map[string]int{"h02": 0, "osmand": 0}, core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	garbage := []string{"27051\x01\x0211", "2705\xff\xfe1109", "\x1b[31m2705171109", "2705\u202e171109", strings.Repeat("9", 129)}

	// h02 over TCP: the V1 fixes with garbage ids, then a sound one, whose
	// V4 reply tells that the listener has handled those before it.
	conn, err := net.Dial("tcp", l.Addrs["h02"].String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	for _, id := range append(garbage, "2705171109") {
		conn.Write([]byte("*HQ," + id + ",V1,213324,A,5002.5849,N,01433.7822,E,0.00,000,140613,FFFFFFFF#"))
	}
	reply, err := bufio.NewReader(conn).ReadString('#')
	if err != nil || !strings.HasPrefix(reply, "*HQ,2705171109,V4,V1,") {
		t.Fatalf("first reply = %q (%v), want the V4 of the sound id only", reply, err)
	}

	// OsmAnd over HTTP: 404 as for an unknown device, then a sound id.
	for _, id := range append(garbage, "353861053849681") {
		q := url.Values{"id": {id}, "lat": {"60"}, "lon": {"30"}, "timestamp": {"1377177267"}}
		resp, err := http.Get("http://" + l.Addrs["osmand"].String() + "/?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]int{true: http.StatusNotFound, false: http.StatusOK}[id != "353861053849681"]; resp.StatusCode != want {
			t.Errorf("osmand id %q: %d, want %d", id, resp.StatusCode, want)
		}
	}

	devices, _ := core.Fleet.Devices.List(model.System(), model.Query{All: true})
	var ids []string
	for _, d := range devices {
		ids = append(ids, d.UniqueID)
	}
	if strings.Join(ids, ",") != "2705171109,353861053849681" {
		t.Errorf("registered %q, want only the two sound ids", ids)
	}
	for protocol, want := range map[string]uint64{"h02": uint64(len(garbage)), "osmand": uint64(len(garbage))} {
		if got := l.Stats[protocol].Unknown.Load(); got != want {
			t.Errorf("%s frames refused = %d, want %d", protocol, got, want)
		}
	}
	if got := core.Stats().InvalidIDs; got != 2*uint64(len(garbage)) {
		t.Errorf("invalid ids = %d, want %d", got, 2*len(garbage))
	}
	if unknown, _ := core.Ingest.UnknownDevices(model.System()); len(unknown) != 0 {
		t.Errorf("unknown devices = %+v, want none", unknown)
	}
}

// One address registers at most IngestOptions.AutoRegisterPerHour devices
// an hour, whatever ids it sends; the rest are listed as unknown for the
// administrator, as without auto-registration.
func TestAutoRegistrationBudgetPerAddress(t *testing.T) {
	db := storagetest.Open(t)
	core := app.New(db, app.Options{BcryptCost: 4, Ingest: ingest.Options{AutoRegister: true, AutoRegisterPerHour: 3}})
	l, err := catalog.Start("127.0.0.1", map[string]int{"osmand": 0}, core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	for i, id := range []string{"1001", "1002", "1003", "1004", "1005", "1001"} {
		q := url.Values{"id": {id}, "lat": {"60"}, "lon": {"30"}, "timestamp": {"1377177267"}}
		resp, err := http.Get("http://" + l.Addrs["osmand"].String() + "/?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusOK // the first three register; 1001 is known when it reports again
		if id == "1004" || id == "1005" {
			want = http.StatusNotFound
		}
		if resp.StatusCode != want {
			t.Errorf("report %d (id %s): %d, want %d", i, id, resp.StatusCode, want)
		}
	}
	devices, _ := core.Fleet.Devices.List(model.System(), model.Query{All: true})
	if len(devices) != 3 {
		t.Errorf("%d devices registered, want 3", len(devices))
	}
	unknown, _ := core.Ingest.UnknownDevices(model.System())
	var ids []string
	for _, u := range unknown {
		ids = append(ids, u.UniqueID)
	}
	if len(ids) != 2 || !strings.Contains(strings.Join(ids, ","), "1004") || !strings.Contains(strings.Join(ids, ","), "1005") {
		t.Errorf("unknown devices %q, want 1004 and 1005", ids)
	}
}
