package dashboard_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestFleetPage(t *testing.T) {
	// Every fleet page has the live map (no polling) and the menu.
	page := []string{`data-tiles="https://tile.openstreetmap.org/{{z}}/{{x}}/{{y}}.png"`,
		`data-attribution="© OpenStreetMap contributors"`, `data-live-state`, `<nav`}
	run(t, []scenario{
		{Name: "admin", As: "admin", Method: "GET", Path: "/dashboard/fleet", Status: 200,
			Want: append([]string{"Truck One", "Van Two", "Van Three", `"name":"Truck One"`, `"latitude":52.52`,
				`"status":"online"`, "no position yet", "50 km/h", "Unregistered trackers",
				`data-speed-factor="1.852" data-speed-unit="km/h"`, `<tr data-device="{truck1}">`, `data-follow="{truck1}"`},
				page...), Absent: []string{"every 15s"}},
		{Name: "admin ?q=van", As: "admin", Method: "GET", Path: "/dashboard/fleet?q=van", Status: 200,
			Want: append([]string{"Van Two</a>", "Van Three</a>"}, page...), Absent: []string{"Truck One</a>"}},
		{Name: "admin ?q=356938035643809", As: "admin", Method: "GET", Path: "/dashboard/fleet?q=356938035643809", Status: 200,
			Want: append([]string{"Truck One</a>"}, page...), Absent: []string{"Van Two</a>"}},
		{Name: "admin ?status=offline", As: "admin", Method: "GET", Path: "/dashboard/fleet?status=offline", Status: 200,
			Want: append([]string{"Van Two</a>"}, page...), Absent: []string{"Truck One</a>", "Van Three</a>"}},
		// A manager sees what it manages, and no unknown devices (administrators only).
		{Name: "manager", As: "manager", Method: "GET", Path: "/dashboard/fleet", Status: 200,
			Want: append([]string{"Van Three</a>", `"latitude":53.55`}, page...), Absent: []string{"Truck One", "Van Two", "Unregistered trackers"}},
	})
}

// The filters (and the live map, back from a lost connection) ask for the
// list only: it carries every device the viewer sees for the map and the
// counts, the filtered ones listed.
func TestFleetListFragment(t *testing.T) {
	run(t, []scenario{
		{Name: "fragment", As: "admin", Method: "GET", Path: "/dashboard/fleet?q=truck",
			Header: map[string]string{"HX-Request": "true", "HX-Target": "fleet-list"}, Status: 200,
			Want:   []string{"Truck One</a>", `id="fleet-data"`, `"name":"Van Two","status":"offline","lastUpdate":null,"listed":false}`},
			Absent: []string{"<html", "<nav", "Van Two</a>"}},
	})
}

// The tile URL comes from the server's mapUrl when it is a tile template.
func TestFleetTileURLFromServerSettings(t *testing.T) {
	e := newEnv(t)
	if _, err := e.Core.Accounts.UpdateServer(e.users["admin"], func(s *model.Server) error {
		s.MapURL = "https://tiles.example.com/{z}/{x}/{y}.png"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	webtest.Contains(t, "fleet", e.as("admin").get("/dashboard/fleet").Body, `data-tiles="https://tiles.example.com/{z}/{x}/{y}.png"`)
}

func TestDeviceCreateEditDelete(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	form := url.Values{"name": {"Bus Four"}, "uniqueId": {"868000000000004"}, "phone": {"+49 170 1234567"},
		"model": {"GT06N"}, "groupId": {"0"}}
	res := admin.post("/dashboard/fleet/devices", form)
	if res.Status != 303 {
		t.Fatalf("create: %d %.400s", res.Status, res.Body)
	}
	list, err := e.Core.Fleet.Devices.List(e.users["admin"], model.Query{UniqueIDs: []string{"868000000000004"}})
	if err != nil || len(list) != 1 || list[0].Name != "Bus Four" || list[0].Model != "GT06N" || list[0].Phone != "+49 170 1234567" {
		t.Fatalf("created device: %+v %v", list, err)
	}
	id := itoa(list[0].ID)

	// Refusals re-render the form with the problem and the input kept.
	for _, bad := range []url.Values{
		{"name": {""}, "uniqueId": {"868000000000005"}},
		{"name": {"Duplicate"}, "uniqueId": {"356938035643809"}},
		{"name": {"Bad group"}, "uniqueId": {"868000000000006"}, "groupId": {"x"}},
	} {
		res := admin.post("/dashboard/fleet/devices", bad)
		if res.Status != 422 || !strings.Contains(res.Body, `class="alert"`) || !strings.Contains(res.Body, bad.Get("uniqueId")) {
			t.Errorf("create %v: %d %.300s", bad, res.Status, res.Body)
		}
	}

	res = admin.get("/dashboard/fleet/devices/" + id + "/edit")
	webtest.Contains(t, "edit form", res.Body, `value="Bus Four"`, `value="GT06N"`, `action="/dashboard/fleet/devices/`+id+`/edit"`, "Delete device")
	form.Set("name", "Bus Four (blue)")
	// Saved, the browser goes to the vehicle page.
	if res := admin.post("/dashboard/fleet/devices/"+id+"/edit", form); res.Status != 303 || res.Header.Get("Location") != "/dashboard/fleet/devices/"+id {
		t.Fatalf("update: %d %v %.300s", res.Status, res.Header, res.Body)
	}
	if d, _ := e.Core.Fleet.Devices.Get(e.users["admin"], list[0].ID); d == nil || d.Name != "Bus Four (blue)" {
		t.Fatalf("updated device: %+v", d)
	}
	// A manager cannot see, hence not edit, the administrator's device.
	manager := e.as("manager")
	for _, path := range []string{"", "/edit"} {
		if res := manager.get("/dashboard/fleet/devices/" + id + path); res.Status != 404 {
			t.Errorf("manager GET other's device%s: %d", path, res.Status)
		}
	}
	if res := manager.post("/dashboard/fleet/devices/"+id+"/edit", url.Values{"name": {"Taken"}, "uniqueId": {"868000000000004"}}); res.Status != 404 {
		t.Errorf("manager POST other's device: %d", res.Status)
	}
	if res := admin.post("/dashboard/fleet/devices/"+id+"/delete", nil); res.Status != 303 {
		t.Fatalf("delete: %d", res.Status)
	}
	if _, err := e.Core.Fleet.Devices.Get(e.users["admin"], list[0].ID); model.ClassOf(err) != model.ClassNotFound {
		t.Fatalf("deleted device still there: %v", err)
	}
	if res := admin.get("/dashboard/fleet/devices/abc"); res.Status != 400 {
		t.Errorf("bad id: %d", res.Status)
	}
}

// The device page tells how to connect the tracker: the shared port, and
// its own protocol's port and SMS set-up opened once it has reported.
func TestConnectTheTracker(t *testing.T) {
	run(t, []scenario{
		{Name: "a tracker that reported: its protocol opened", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}/edit",
			Status: 200, Want: []string{"Connect the tracker", "port <code>5000</code>", `<details open data-protocol="gt06">`,
				"this tracker", "SERVER,0,example.com,5023,0#", "APN,APN#", "TIMER,30#", "Concox GT06N user manual"}},
		{Name: "a new device: the installation record is not assumed", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/new",
			Status: 200, Want: []string{`<input type="checkbox" name="install">`}, Absent: []string{`name="install" checked`}},
		{Name: "a new device: every protocol, none opened", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/new",
			Status: 200, Want: []string{"port <code>5000</code>", `<details data-protocol="gt06">`, `<details data-protocol="teltonika">`,
				"<strong>teltonika</strong>: port 5027", "(TCP and UDP)"},
			Absent: []string{"this tracker", "<details open"}},
	})
}

func TestUnknownDevices(t *testing.T) {
	e := newEnv(t)
	if _, err := e.Core.Ingest.Identify("gt06", "862000000000077", "203.0.113.9:4711"); err == nil {
		t.Fatal("unknown device identified")
	}
	admin := e.as("admin")
	res := admin.get("/dashboard/fleet/unknown")
	webtest.Contains(t, "unknown list", res.Body, "862000000000077", "gt06", "203.0.113.9:4711")
	if res := e.as("manager").get("/dashboard/fleet/unknown"); res.Status != 403 {
		t.Errorf("manager: %d", res.Status)
	}
	// Only a device that did report can be added from here.
	if res := admin.post("/dashboard/fleet/unknown", url.Values{"uniqueId": {"111"}, "name": {"X"}}); res.Status != 404 {
		t.Errorf("add a never seen id: %d", res.Status)
	}
	res = admin.post("/dashboard/fleet/unknown", url.Values{"uniqueId": {"862000000000077"}, "name": {"Trailer 7"}})
	if res.Status != 303 {
		t.Fatalf("add: %d %.300s", res.Status, res.Body)
	}
	if d, err := e.Core.Ingest.Identify("gt06", "862000000000077", "203.0.113.9:4711"); err != nil || d.Name != "Trailer 7" {
		t.Fatalf("added device: %+v %v", d, err)
	}
	webtest.Lacks(t, "unknown list after adding", admin.get("/dashboard/fleet/unknown").Body, "862000000000077")
}

func TestUsersPage(t *testing.T) {
	run(t, []scenario{
		{Name: "admin's users", As: "admin", Method: "GET", Path: "/dashboard/users", Status: 200,
			Want: []string{"Ada Admin", "Max Manager", "Dora Driver", "administrator", "manager"}},
		{Name: "manager's users", As: "manager", Method: "GET", Path: "/dashboard/users", Status: 200,
			Want: []string{"Dora Driver", "The users you manage"}, Absent: []string{"Ada Admin"}},
	})
}

func TestNotFoundPage(t *testing.T) {
	run(t, []scenario{
		{Name: "404 page", As: "admin", Method: "GET", Path: "/dashboard/no-such-page", Status: 404, Want: []string{"<nav"}},
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A device registered with its installation record (the extended API's
// M3) needs phone and contact, and its page shows the record.
func TestDeviceInstallation(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	form := url.Values{"name": {"Tractor"}, "uniqueId": {"868000000000099"}, "install": {"on"},
		"installLocation": {"Depot North"}, "installNotes": {"Under the dashboard"}}
	res := admin.post("/dashboard/fleet/devices", form)
	if res.Status != 422 || !strings.Contains(res.Body, "phone") || !strings.Contains(res.Body, `value="Depot North"`) {
		t.Fatalf("install without phone: %d %.400s", res.Status, res.Body)
	}
	form.Set("phone", "+49 171 555")
	form.Set("contact", "Hans")
	if res := admin.post("/dashboard/fleet/devices", form); res.Status != 303 {
		t.Fatalf("install: %d %.400s", res.Status, res.Body)
	}
	list, err := e.Core.Fleet.Devices.List(e.users["admin"], model.Query{UniqueIDs: []string{"868000000000099"}})
	if err != nil || len(list) != 1 || list[0].ExpirationTime == nil {
		t.Fatalf("installed device: %+v %v", list, err)
	}
	page := admin.get("/dashboard/fleet/devices/" + itoa(list[0].ID) + "/edit").Body
	webtest.Contains(t, "device page", page, "Installation record", "by Ada Admin", "Where: Depot North", "Under the dashboard")
	webtest.Lacks(t, "device page", page, `name="install"`)
}

// "What my trackers send": the frames the listeners could not use, with
// the offer to accept the checksums of a device whose frames fail them.
func TestRawFramesPage(t *testing.T) {
	e := newEnv(t)
	truck := e.IDs["truck1"]
	if _, err := e.Core.Ingest.Identify("gt06", "862000000000077", "203.0.113.9:4711"); err == nil {
		t.Fatal("unknown device identified")
	}
	e.Core.Ingest.Tap(inbox.Seen{Protocol: "gt06", Remote: "203.0.113.9:4711", UniqueID: "862000000000077",
		Data: []byte{0x78, 0x78, 0x0d, 0x01}, Problem: inbox.UnknownDevice})
	e.Core.Ingest.Tap(inbox.Seen{Protocol: "gt06", Remote: "198.51.100.7:5000", UniqueID: "356938035643809", DeviceID: truck,
		Data: []byte{0x78, 0x78, 0x1f, 0x12}, Problem: inbox.ChecksumMismatch})
	admin := e.as("admin")
	res := admin.get("/dashboard/fleet/frames")
	webtest.Contains(t, "frames", res.Body, "What my trackers send", "78780d01", "unknown device", "862000000000077",
		"78781f12", "checksum mismatch", "Truck One", "Accept its checksums")
	webtest.Contains(t, "unknown list with its last frame", admin.get("/dashboard/fleet/unknown").Body, "78780d01")
	res = admin.get("/dashboard/fleet/frames?device=" + itoa(truck))
	webtest.Contains(t, "one device's frames", res.Body, "What Truck One sends", "78781f12")
	webtest.Lacks(t, "one device's frames", res.Body, "78780d01")
	if res := e.as("manager").get("/dashboard/fleet/frames"); res.Status != 403 {
		t.Errorf("manager: %d", res.Status)
	}

	if res := admin.post("/dashboard/fleet/frames/checksum", url.Values{"deviceId": {itoa(truck)}}); res.Status != 303 {
		t.Fatalf("accept checksums: %d %.300s", res.Status, res.Body)
	}
	d, err := e.Core.Fleet.Devices.Get(model.System(), truck)
	if err != nil || !ingest.ChecksumWaived(d) {
		t.Fatalf("device after accepting its checksums: %+v %v", d, err)
	}
	webtest.Lacks(t, "frames once accepted", admin.get("/dashboard/fleet/frames").Body, "Accept its checksums")
	// Marking is a device edit: only for those who may edit the device.
	if res := e.as("manager").post("/dashboard/fleet/frames/checksum", url.Values{"deviceId": {itoa(e.IDs["van2"])}}); res.Status != 404 {
		t.Errorf("manager marking a device it cannot see: %d", res.Status)
	}
}
