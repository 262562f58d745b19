package dashboard_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// colorScheme makes the page see prefers-color-scheme as scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// detailPages are pages no navigation entry leads to directly, checked
// besides every page the navigation bar offers.
var detailPages = []string{"/profile", "/users/new", "/alerts/new", "/geofences/new", "/fleet/devices/{truck1}",
	"/fleet/devices/{truck1}/edit", "/reports?type=summary&range=last7", "/fleet/devices/new", "/fleet/unknown", "/fleet/frames", "/tickets/new", "/documents/new", "/maintenance/new"}

// lightBoxes lists the visible elements of main (maps aside) whose own
// background is nearly white: in dark mode, a colour the palette does not
// set.
const lightBoxes = `(() => {
	const lum = (c) => { const m = c.match(/\d+(\.\d+)?/g); if (!m || (m.length > 3 && +m[3] < 0.5)) return -1; // see-through: the box below counts
		return (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255; };
	return [...document.querySelectorAll('body *')].filter(el => !el.closest('.leaflet-container') && el.offsetWidth > 0 &&
		lum(getComputedStyle(el).backgroundColor) > 0.85).map(el => el.tagName.toLowerCase() + '.' + el.className).slice(0, 5);
})()`

// TestEveryPageAtPhoneWidthInBothSchemes opens every page the navigation
// offers an administrator, and the forms and detail pages, at a 390 px
// phone width in light and dark mode: no page scrolls sideways, and in dark
// mode no box keeps a daylight background and the text is light.
func TestEveryPageAtPhoneWidthInBothSchemes(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	e.addTicket("driver1", "Speed looks wrong", "tracking")
	sendFiles(t, e, "truck1") // the vehicle page with its photos
	s := newSession(t, e)
	dash := s.base + "/dashboard"
	s.do("phone width", chromedp.EmulateViewport(390, 844))
	s.signIn(dash+"/login", "admin@example.com", password, "Overview")
	var pages []string
	for _, v := range s.eval(`[...document.querySelectorAll('nav.nav a')].map(a => a.pathname)`).([]any) {
		pages = append(pages, v.(string))
	}
	if len(pages) < 5 {
		t.Fatalf("navigation offers only %v", pages)
	}
	for _, p := range detailPages {
		pages = append(pages, "/dashboard"+strings.ReplaceAll(p, "{truck1}", itoa(e.IDs["truck1"])))
	}
	for _, scheme := range []string{"light", "dark"} {
		s.do("scheme "+scheme, colorScheme(scheme))
		for _, page := range pages {
			s.do(scheme+" "+page, chromedp.Navigate(s.base+page), chromedp.WaitVisible(chromedp.CSS("main h1")))
			if w := s.eval(`document.documentElement.scrollWidth`).(float64); w > 391 {
				t.Errorf("%s (%s) is %v px wide at phone width", page, scheme, w)
			}
			if scheme != "dark" {
				continue
			}
			if boxes := s.eval(lightBoxes).([]any); len(boxes) > 0 {
				t.Errorf("%s in dark mode has daylight boxes: %v", page, boxes)
			}
			if ink := s.eval(`getComputedStyle(document.querySelector('main h1')).color`); ink == "rgb(28, 36, 48)" {
				t.Errorf("%s in dark mode keeps the daylight ink", page)
			}
		}
		s.screenshot("phone-" + scheme + "-fleet")
	}
}
