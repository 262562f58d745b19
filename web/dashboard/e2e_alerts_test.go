package dashboard_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/model"
)

// TestBrowserGeofencesAndAlerts draws a geofence with Leaflet.draw in
// headless Chromium (real clicks on the map), saves it and reads it back
// through the core; then sets up an overspeed alert through its form.
func TestBrowserGeofencesAndAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	s := newSession(t, e)
	dash := s.base + "/dashboard"
	s.signIn(dash+"/login", "admin@example.com", password, "Overview")

	// Draw a four-cornered polygon: the tool, four clicks, Finish.
	s.do("open the drawing map",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/geofences"]`)),
		s.waitText("h1", "Geofences"),
		chromedp.Click(chromedp.CSS(`a.button.primary[href="/dashboard/geofences/new"]`)),
		waitTrue(`document.getElementById('geofence-map').dataset.drawing === 'true'`),
		chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Drawn depot"),
		chromedp.Click(chromedp.CSS(`input[name=devices][value="`+itoa(e.IDs["truck1"])+`"]`)),
		chromedp.Click(chromedp.CSS(`a.leaflet-draw-draw-polygon`)),
	)
	s.eval(`document.getElementById('geofence-map').scrollIntoView({block: 'center'})`)
	left := s.eval(`document.getElementById('geofence-map').getBoundingClientRect().left`).(float64)
	top := s.eval(`document.getElementById('geofence-map').getBoundingClientRect().top`).(float64)
	corners := [][2]float64{{200, 80}, {420, 90}, {430, 260}, {210, 250}}
	// As a hand does: move there, then click. The tool takes no click
	// within 50 ms of the last one (its double-click guard): no hand is
	// that quick, a test is.
	for i, c := range corners {
		s.do("click a corner", chromedp.Sleep(100*time.Millisecond),
			chromedp.MouseEvent(chromedp.MouseMoved, left+c[0], top+c[1]), chromedp.MouseClickXY(left+c[0], top+c[1]),
			waitTrue(`document.querySelectorAll('#geofence-map .leaflet-editing-icon').length === `+strconv.Itoa(i+1)))
	}
	// Inside the drawn corners, as the map places it.
	inside := s.eval(`(() => { const ll = document.getElementById('geofence-map').fleetdMap.containerPointToLatLng([315, 170]); return [ll.lat, ll.lng]; })()`).([]any)
	s.do("finish the polygon",
		chromedp.Click(chromedp.CSS(`.leaflet-draw-actions a[title^="Finish"]`)),
		waitTrue(`document.getElementById('geofence-area').value.startsWith('POLYGON ((')`),
	)
	s.screenshot("geofence-drawn")
	s.do("save the geofence",
		chromedp.Click(chromedp.CSS(`form.geofence-form button.primary`)),
		s.waitText("table.list", "Drawn depot"),
		s.waitText("table.list", "polygon, 4 corners"),
		waitTrue(`document.querySelectorAll('#geofence-map path.leaflet-interactive:not(.vehicle-dot)').length === 1`),
	)
	s.screenshot("geofences")
	fences, err := e.Core.Fleet.Geofences.List(e.users["admin"], model.Query{})
	if err != nil || len(fences) != 1 {
		t.Fatalf("geofences after drawing: %+v %v", fences, err)
	}
	shape, err := geo.Parse(fences[0].Area)
	polygon, ok := shape.(geo.Polygon)
	if err != nil || !ok || len(polygon.Lats) != len(corners)+1 {
		t.Fatalf("drawn area %q: %v", fences[0].Area, err)
	}
	if lat, lon := inside[0].(float64), inside[1].(float64); !polygon.Contains(lat, lon) || polygon.Contains(lat+30, lon) {
		t.Errorf("drawn area %q does not hold the middle of the clicks (%v %v)", fences[0].Area, lat, lon)
	}
	if linked, _ := e.Core.Fleet.Owners(e.users["admin"], model.KindGeofence, fences[0].ID, model.KindDevice); len(linked) != 1 {
		t.Errorf("geofence linked to %v", linked)
	}

	// Reshape it in the edit mode (drag a corner, Save), then replace it
	// with a circle (press, drag, release).
	s.do("edit the geofence",
		chromedp.Navigate(dash+"/geofences/"+itoa(fences[0].ID)),
		waitTrue(`document.getElementById('geofence-map').dataset.drawing === 'true'`),
		chromedp.Click(chromedp.CSS(`a.leaflet-draw-edit-edit`)),
		waitTrue(`document.querySelectorAll('#geofence-map .leaflet-editing-icon').length >= 4`),
	)
	drawn := fences[0].Area
	s.eval(`document.getElementById('geofence-map').scrollIntoView({block: 'center'})`)
	x := s.eval(`(() => { const r = document.querySelector('#geofence-map .leaflet-editing-icon').getBoundingClientRect(); return r.left + r.width / 2; })()`).(float64)
	y := s.eval(`(() => { const r = document.querySelector('#geofence-map .leaflet-editing-icon').getBoundingClientRect(); return r.top + r.height / 2; })()`).(float64)
	s.do("drag a corner",
		chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseMoved, x+20, y+15, chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseMoved, x+40, y+30, chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseReleased, x+40, y+30, chromedp.Button("left")),
		chromedp.Click(chromedp.CSS(`.leaflet-draw-actions a[title^="Save"]`)),
		waitTrue(`document.getElementById('geofence-area').value !== `+jsString(drawn)),
	)
	if area := s.eval(`document.getElementById('geofence-area').value`).(string); !strings.HasPrefix(area, "POLYGON ((") {
		t.Errorf("area after editing: %q", area)
	}
	left = s.eval(`document.getElementById('geofence-map').getBoundingClientRect().left`).(float64)
	top = s.eval(`document.getElementById('geofence-map').getBoundingClientRect().top`).(float64)
	center := [2]float64{left + 600, top + 200}
	s.do("draw a circle",
		chromedp.Click(chromedp.CSS(`a.leaflet-draw-draw-circle`)),
		chromedp.MouseEvent(chromedp.MouseMoved, center[0], center[1]),
		chromedp.MouseEvent(chromedp.MousePressed, center[0], center[1], chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseMoved, center[0]+30, center[1], chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseMoved, center[0]+60, center[1], chromedp.Button("left")),
		chromedp.MouseEvent(chromedp.MouseReleased, center[0]+60, center[1], chromedp.Button("left")),
		waitTrue(`document.getElementById('geofence-area').value.startsWith('CIRCLE (')`),
		chromedp.Click(chromedp.CSS(`form.geofence-form button.primary`)),
		s.waitText("table.list", "circle, radius"),
	)
	if g, err := e.Core.Fleet.Geofences.Get(e.users["admin"], fences[0].ID); err != nil || !strings.HasPrefix(g.Area, "CIRCLE (") {
		t.Errorf("geofence after drawing a circle: %+v %v", g, err)
	}

	// An overspeed alert at 80 km/h for the truck.
	s.do("set up an overspeed alert",
		chromedp.Navigate(dash+"/alerts/new"),
		chromedp.WaitVisible(chromedp.CSS(`select[name=type]`)),
		chromedp.SetValue(chromedp.CSS(`select[name=type]`), model.EventAlarm),
		waitTrue(`document.querySelector('input[name=speedLimit]').offsetParent === null`),
		chromedp.SetValue(chromedp.CSS(`select[name=type]`), model.EventDeviceOverspeed),
		chromedp.SendKeys(chromedp.CSS(`input[name=speedLimit]`), "80"),
		chromedp.Click(chromedp.CSS(`input[name=devices][value="`+itoa(e.IDs["truck1"])+`"]`)),
		chromedp.Click(chromedp.CSS(`form.alert-form button.primary`)),
		s.waitText("ul.alert-list", "over 80 km/h"),
	)
	s.screenshot("alerts")
	if d, _ := e.Core.Fleet.Devices.Get(model.System(), e.IDs["truck1"]); d.Attributes[fleet.SpeedLimitKey] != 43.2 {
		t.Errorf("truck's speedLimit after the form: %v", d.Attributes)
	}

	// Phone width: the pages fit without sideways scrolling.
	for _, page := range []string{"/alerts", "/alerts/new", "/geofences", "/geofences/new"} {
		s.do("phone "+page, chromedp.EmulateViewport(390, 844), chromedp.Navigate(dash+page), chromedp.WaitVisible(chromedp.CSS("main h1")))
		if w := s.eval(`document.documentElement.scrollWidth`); w.(float64) > 391 {
			t.Errorf("%s is %v px wide at phone width", page, w)
		}
	}
	s.do("phone drawing tools", waitTrue(`document.getElementById('geofence-map').dataset.drawing === 'true' && !document.querySelector('#geofence-map .leaflet-zoom-anim')`))
	s.screenshot("phone-geofence-form")

	s.checkClean()
}
