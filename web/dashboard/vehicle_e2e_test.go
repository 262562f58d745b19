package dashboard_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/model"
)

// TestVehicleBrowser opens a vehicle page in headless Chromium: the
// range's route draws, the replay moves its marker (playing and
// scrubbing), a position the core takes after the page loaded moves the
// live marker, a command goes out only after its confirmation, and the
// page fits a phone.
func TestVehicleBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := withCommands(t)
	e.drive(t, "van2", vehicleAttrs)
	s := newSession(t, e)
	s.signIn(s.base+"/dashboard/login", "admin@example.com", password, "Overview")
	van := s.base + "/dashboard/fleet/devices/" + itoa(e.IDs["van2"])
	day := van + "?from=" + driveDay + "&to=" + driveDay

	s.do("the route draws",
		chromedp.Navigate(day),
		waitTrue(`fleetdVehicle.routePoints() === 36`),
		waitTrue(`document.querySelector('#vehicle-map path.route-line') !== null`),
		waitTrue(`!document.getElementById('replay').hidden`),
		s.waitText(`[data-replay=readout]`, "2024-01-02 08:00:00 · 0 km/h · 1 of 36"),
	)
	if at := s.eval(`fleetdVehicle.replayAt().join(',')`); at != "52.5,13.4" {
		t.Fatalf("replay starts at %v", at)
	}
	s.screenshot("vehicle")

	s.do("replay plays to the end",
		chromedp.SetValue(chromedp.CSS(`[data-replay=speed]`), "16"),
		chromedp.Click(chromedp.CSS(`[data-replay=play]`)),
		waitTrue(`fleetdVehicle.replayAt()[0] > 52.5`),
		s.waitText(`[data-replay=readout]`, "36 of 36"),
		waitTrue(`!fleetdVehicle.playing()`),
		s.waitText(`[data-replay=play]`, "Play"),
	)
	if lat := s.eval(`fleetdVehicle.replayAt()[0]`).(float64); lat < 52.5299 || lat > 52.5301 {
		t.Errorf("replay ended at latitude %v", lat)
	}
	s.do("scrubbing moves the marker",
		waitTrue(`(() => { const s = document.querySelector('[data-replay=scrub]'); s.value = 15; s.dispatchEvent(new Event('input')); return true; })()`),
		s.waitText(`[data-replay=readout]`, "2024-01-02 08:15:00 · 20 km/h · 16 of 36"),
	)
	if lat := s.eval(`fleetdVehicle.replayAt()[0]`).(float64); lat < 52.5149 || lat > 52.5151 {
		t.Errorf("scrubbed to latitude %v", lat)
	}

	// Live: the marker starts at the last position and follows the core.
	s.do("live feed connected",
		waitTrue(`document.querySelector('[data-live-state]').dataset.liveState === 'live'`),
		waitTrue(`fleetdVehicle.liveAt().join(',') === '52.53,13.4'`),
	)
	p := &model.Position{Protocol: "gt06", FixTime: e.now, DeviceTime: e.now, Valid: true, Latitude: 52.6, Longitude: 13.5,
		Speed: 30, Attributes: model.Attributes{"ignition": true}}
	if err := e.Core.Ingest.Ingest(e.IDs["van2"], []*model.Position{p}); err != nil {
		t.Fatal(err)
	}
	s.do("a new position moves the live marker",
		waitTrue(`fleetdVehicle.liveAt().join(',') === '52.6,13.5'`),
		s.waitText(`[data-live=speed]`, "56 km/h"),
		s.waitText(`[data-live=coords]`, "52.60000, 13.50000"),
		s.waitText(`[data-attr=ignition]`, "on"),
	)

	// A command: the first click only asks.
	s.do("ask to stop the engine",
		chromedp.SetValue(chromedp.CSS(`#command select[name=type]`), "engineStop"),
		chromedp.Click(chromedp.CSS(`#command button.primary`)),
		s.waitText("#command", "Yes, send it"),
	)
	if q := queuedCommands(t, e); len(q) != 0 {
		t.Fatalf("sent before confirmation: %+v", q)
	}
	s.do("confirm",
		chromedp.Click(chromedp.CSS(`#command button.danger`)),
		s.waitText("#command", "The command “Engine stop” is queued"),
	)
	if q := queuedCommands(t, e); len(q) != 1 || q[0].Type != "engineStop" || q[0].DeviceID != e.IDs["van2"] {
		t.Fatalf("queue after confirming: %+v", q)
	}

	s.do("phone width", chromedp.EmulateViewport(390, 844), chromedp.Navigate(day), waitTrue(`fleetdVehicle.routePoints() === 36`))
	if w := s.eval(`document.documentElement.scrollWidth`); w.(float64) > 391 {
		t.Errorf("the vehicle page is %v px wide at phone width", w)
	}
	s.screenshot("phone-vehicle")

	s.checkClean()
}
