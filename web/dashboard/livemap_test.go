package dashboard_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// TestLiveMap drives the fleet page while the fleet moves: positions and
// status changes stored through the core after the page loaded reach the
// map, the list and the counts over the live socket, without a reload,
// under the page's Content-Security-Policy with tiles from another host;
// then a followed vehicle keeps the map centred on it until the user pans.
func TestLiveMap(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	// localhost is another host than 127.0.0.1 to the browser: the policy
	// must name the tile server, or no tile request reaches it.
	var tilesFetched atomic.Int32
	e.App.Get("/test-tiles/*", func(c *fiber.Ctx) error {
		if strings.HasPrefix(c.Hostname(), "localhost") {
			tilesFetched.Add(1)
		}
		return c.Next()
	})
	s := newSession(t, e)
	tileHost := strings.Replace(s.base, "127.0.0.1", "localhost", 1)
	if _, err := e.Core.Accounts.UpdateServer(e.users["admin"], func(srv *model.Server) error {
		srv.MapURL = tileHost + "/test-tiles/{z}/{x}/{y}.png"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	truck, van2 := e.IDs["truck1"], e.IDs["van2"]
	row := func(id int64, cell string) string {
		return fmt.Sprintf(`#fleet-list tr[data-device="%d"] [data-cell=%q]`, id, cell)
	}
	s.signIn(s.base+"/dashboard/login", "admin@example.com", password, "Overview")
	s.do("open the live map",
		chromedp.Navigate(s.base+"/dashboard/fleet"),
		s.waitText(".map-wrap [data-live-state]", "Live"),
		waitTrue(`document.querySelectorAll('#map .dot').length === 2`),
		// Gone after a reload: checked at the end.
		waitTrue(`window.sameLoad = true`),
	)

	for deadline := time.Now().Add(10 * time.Second); tilesFetched.Load() == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no map tile was fetched from the tile server")
		}
	}

	// A position moves the marker and the list's cells.
	e.storePosition(truck, 52.53, 13.45, 54, -50*time.Second)
	s.do("the truck moves",
		waitTrue(markerAt(truck, 52.53, 13.45)),
		s.waitText(row(truck, "position"), "52.53000, 13.45000"),
		s.waitText(row(truck, "speed"), "100 km/h"),
	)
	// A device's first position puts it on the map; its report made it
	// online: the list and the counts say so.
	e.storePosition(van2, 52.40, 13.10, 0, -50*time.Second)
	s.do("van 2 appears",
		waitTrue(markerAt(van2, 52.40, 13.10)),
		waitTrue(`document.querySelectorAll('#map .dot').length === 3`),
		s.waitText(row(van2, "position"), "52.40000, 13.10000"),
		s.waitText(row(van2, "status"), "online"),
		s.waitText(`.stats a[href$="status=online"] .stat-value`, "3"),
		s.waitText(`.stats a[href$="status=offline"] .stat-value`, "0"),
	)
	if hidden := s.eval(`document.querySelector(` + jsString(row(van2, "position")) + ` + ' .muted').hidden`); hidden != true {
		t.Errorf("van 2 still says it has no position (hidden: %v)", hidden)
	}
	// A status change: the connection ends, the truck goes offline.
	e.Core.Ingest.Connected(truck, quietConn{})()
	s.do("the truck goes offline",
		s.waitText(row(truck, "status")+" .badge.status-offline", "offline"),
		waitTrue(`document.querySelectorAll('#map .dot-offline').length === 1`),
		s.waitText(`.stats a[href$="status=offline"] .stat-value`, "1"),
		s.waitText(`.stats a[href$="status=online"] .stat-value`, "2"),
	)
	s.screenshot("live-map")

	// Following: the map centres on the truck and stays on it as it moves.
	s.do("follow the truck",
		chromedp.Click(chromedp.CSS(row(truck, "position")+" [data-follow]")),
		s.waitText("#follow-bar:not([hidden]) strong", "Truck One"),
		s.waitText(row(truck, "position")+` [data-follow][aria-pressed="true"]`, "Following"),
		waitTrue(centredOn(52.53, 13.45)),
		waitTrue(`document.querySelectorAll('#map .dot-followed').length === 1`),
	)
	e.storePosition(truck, 52.56, 13.52, 30, -40*time.Second)
	s.do("the map follows", waitTrue(markerAt(truck, 52.56, 13.52)), waitTrue(centredOn(52.56, 13.52)))
	s.screenshot("live-map-follow")

	// Dragging the map ends following: the next position moves the marker only.
	// Following from the list scrolls the map into view, smoothly: the map's
	// place is read once the page stands still.
	s.do("scrolling ends", waitTrue(`(() => { const y = window.scrollY, same = window.lastScrollY === y; window.lastScrollY = y; return same; })()`))
	box := s.eval(`(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.right - 80, r.top + 80]; })()`).([]any)
	x, y := box[0].(float64), box[1].(float64)
	s.do("pan by hand",
		// A drag that starts while the follow pan still animates may not
		// count as one on a loaded machine: start from a map at rest.
		waitTrue(`(() => { const m = fleetdMap.fleet().map; return !(m._panAnim && m._panAnim._inProgress) && !document.querySelector('#map .leaflet-zoom-anim'); })()`),
		chromedp.DragAndDropXY(x, y, x-150, y+60),
		waitTrue(`document.getElementById('follow-bar').hidden`),
		waitTrue(`document.querySelectorAll('#map .dot-followed').length === 0`),
	)
	centre := s.eval(`(() => { const c = fleetdMap.fleet().map.getCenter(); return [c.lat, c.lng]; })()`).([]any)
	e.storePosition(truck, 52.58, 13.60, 30, -30*time.Second)
	s.do("the truck moves alone", waitTrue(markerAt(truck, 52.58, 13.60)))
	if got := s.eval(`(() => { const c = fleetdMap.fleet().map.getCenter(); return [c.lat, c.lng]; })()`).([]any); fmt.Sprint(got) != fmt.Sprint(centre) {
		t.Errorf("the map moved after following ended: centre %v, was %v", got, centre)
	}
	// The marker's popup offers following too.
	s.do("follow from the popup",
		chromedp.Click(chromedp.CSS(row(truck, "position")+" [data-focus]")),
		waitTrue(`(() => { const b = document.querySelector('.leaflet-popup [data-follow]'); if (!b) return false; b.click(); return true; })()`),
		s.waitText("#follow-bar:not([hidden]) strong", "Truck One"),
		waitTrue(centredOn(52.58, 13.60)),
	)
	if same := s.eval(`window.sameLoad === true`); same != true {
		t.Error("the page was reloaded")
	}
	s.checkClean(tileHost + "/")
}

// TestLiveMapClusters: hundreds of vehicles cluster; a cluster counts its
// vehicles and takes the colour of the worst status inside, also when a
// status changes while the page is open.
func TestLiveMapClusters(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	const n = 300
	ids := make([]int64, n)
	for i := range n { // a 20 × 15 grid of vehicles about 200 m apart, in Berlin
		d, err := e.Core.Fleet.Devices.Create(e.users["admin"], func(d *model.Device) error {
			d.Name, d.UniqueID = fmt.Sprintf("Car %03d", i), fmt.Sprintf("86100000000%04d", i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = d.ID
		e.storePosition(d.ID, 52.50+float64(i%20)*0.002, 13.30+float64(i/20)*0.003, 0, -time.Minute)
	}
	s := newSession(t, e)
	s.signIn(s.base+"/dashboard/login", "admin@example.com", password, "Overview")
	// Every vehicle with a position (the 300 and truck1, van3) is on the
	// map once: in a cluster's count or as its own dot.
	const shown = `(() => {
		const clusters = [...document.querySelectorAll('#map .cluster')];
		return clusters.reduce((sum, c) => sum + Number(c.textContent), 0) + document.querySelectorAll('#map .dot').length;
	})()`
	s.do("open the map of 302 vehicles",
		chromedp.Navigate(s.base+"/dashboard/fleet"),
		s.waitText(".map-wrap [data-live-state]", "Live"),
		waitTrue(shown+` === 302`),
	)
	icons := s.eval(`document.querySelectorAll('#map .leaflet-marker-icon').length`).(float64)
	if icons >= n || s.eval(`document.querySelectorAll('#map .cluster-online').length`).(float64) == 0 {
		t.Errorf("%v marker icons for %d vehicles: not clustered", icons, n)
	}
	if bad := s.eval(`document.querySelectorAll('#map .cluster-offline, #map .cluster-unknown').length`); bad != 0.0 {
		t.Errorf("%v clusters of online vehicles are coloured otherwise", bad)
	}
	s.screenshot("live-map-clusters")
	// One vehicle goes offline: its cluster turns the offline colour.
	e.Core.Ingest.Connected(ids[0], quietConn{})()
	s.do("a clustered vehicle goes offline",
		waitTrue(`document.querySelectorAll('#map .cluster-offline').length === 1`),
		s.waitText(`.stats a[href$="status=offline"] .stat-value`, "2"), // van2 and it
	)
}

// storePosition stores a position of the device through the core, as a tracker's
// report would, fixed at the core's clock plus ago.
func (e *env) storePosition(id int64, lat, lon, knots float64, ago time.Duration) {
	e.t.Helper()
	at := e.now.Add(ago)
	p := &model.Position{DeviceID: id, Protocol: "gt06", Valid: true, Latitude: lat, Longitude: lon, Speed: knots,
		FixTime: at, DeviceTime: at}
	if err := e.Core.Ingest.Ingest(id, []*model.Position{p}); err != nil {
		e.t.Fatal(err)
	}
}

// markerAt is true once the device's marker stands at lat, lon.
func markerAt(id int64, lat, lon float64) string {
	return fmt.Sprintf(`(() => { const d = fleetdMap.fleet().devices[%d]; const p = d && d.marker && d.marker.getLatLng();
		return !!p && Math.abs(p.lat - %g) < 1e-9 && Math.abs(p.lng - %g) < 1e-9; })()`, id, lat, lon)
}

// centredOn is true once the map's centre is within about 10 m of lat, lon.
func centredOn(lat, lon float64) string {
	return fmt.Sprintf(`(() => { const c = fleetdMap.fleet().map.getCenter();
		return Math.abs(c.lat - %g) < 1e-4 && Math.abs(c.lng - %g) < 1e-4; })()`, lat, lon)
}

// quietConn is a device connection that is open and sends nothing.
type quietConn struct{}

func (quietConn) Protocol() string              { return "gt06" }
func (quietConn) Send(cmd *model.Command) error { return nil }
