package dashboard_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/model"
)

// TestHostileNamesStayText: a device named with markup (anyone who may
// edit a device names it) shows as text on every map that labels it, never
// as elements of the page.
func TestHostileNamesStayText(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	const name = `<b id="pwned">Truck</b><img src=x>`
	e := newEnv(t)
	if _, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs["truck1"], func(d *model.Device) error {
		d.Name = name
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, e)
	s.signIn(s.base+"/dashboard/login", "admin@example.com", password, "Overview")
	truck := itoa(e.IDs["truck1"])
	s.do("follow the truck on the live map",
		chromedp.Navigate(s.base+"/dashboard/fleet"),
		chromedp.Click(chromedp.CSS(`tr[data-device="`+truck+`"] [data-follow]`)),
		s.waitText(".follow-label", name),
	)
	s.do("the geofence map's vehicle labels",
		chromedp.Navigate(s.base+"/dashboard/geofences"),
		waitTrue(`document.getElementById('geofence-map').fleetdMap !== undefined`),
		waitTrue(`(() => { let found = false; document.getElementById('geofence-map').fleetdMap.eachLayer(l => {
			if (l.getTooltip && l.getTooltip()) { l.openTooltip(); found = true; } }); return found; })()`),
		s.waitText(".leaflet-tooltip", name),
	)
	if got := s.eval(`document.querySelectorAll('#pwned, .leaflet-tooltip img').length`); got != float64(0) {
		t.Errorf("the device's name became %v elements of the page", got)
	}
	s.checkClean()
}
