package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/prefs"
	"github.com/gofiber/fiber/v2"
)

func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

// csrfHeaders is the body's hx-headers value: htmx sends the token with
// every request it makes.
func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{CSRFHeader: token}) // a map of strings always encodes
	return string(b)
}

// ago says how long ago t was, coarsely ("3 min ago"); "never" for nil.
func ago(now time.Time, t *time.Time) string {
	if t == nil || t.IsZero() {
		return "never"
	}
	d := now.Sub(*t)
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

// displayCtx carries the viewer's prefs.Display into templ components,
// so every date, speed and amount a page shows is in the viewer's units.
type displayCtx struct{}

// display is the signed-in viewer's preferences (the defaults before
// sign-in).
func display(c *fiber.Ctx) prefs.Display {
	if d, ok := c.Locals(displayKey).(prefs.Display); ok {
		return d
	}
	return prefs.Default()
}

// shown is the display a component renders with.
func shown(ctx context.Context) prefs.Display {
	if d, ok := ctx.Value(displayCtx{}).(prefs.Display); ok {
		return d
	}
	return prefs.Default()
}

// stamp is an instant in the viewer's time zone.
func stamp(ctx context.Context, t time.Time) string { return shown(ctx).TimeText(t) }

// day is a calendar date (an expiry, a service date: dates without a
// time, so no zone applies).
func day(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format(time.DateOnly)
}

// speed is a speed stored in knots in the viewer's unit.
func speed(ctx context.Context, knots float64) string { return shown(ctx).SpeedText(knots) }

// distance is metres in the viewer's unit.
func distance(ctx context.Context, meters float64) string { return shown(ctx).DistanceText(meters) }

// odometer is an odometer reading (stored in km) in the viewer's unit;
// "–" when none was recorded.
func odometer(ctx context.Context, km *float64) string {
	if km == nil {
		return "–"
	}
	return shown(ctx).RoundDistance(*km)
}

// odometerField is an odometer reading in the viewer's unit for a form.
func odometerField(ctx context.Context, km *float64) string {
	if km == nil || shown(ctx).Distance == prefs.Km {
		return optFloat(km)
	}
	v := math.Round(shown(ctx).DistanceValue(*km*1000)*1000) / 1000 // KmFrom reads it back to the metre
	return optFloat(&v)
}

// money is an amount in the server's currency.
func money(ctx context.Context, v float64) string { return shown(ctx).Money(v) }

// optFloat formats an optional number for a form field.
func optFloat(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// compareFold orders strings case-insensitively, then exactly.
func compareFold(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// daysText says how far away an expiry is.
func daysText(days int) string {
	switch {
	case days == 0:
		return "today"
	case days == 1:
		return "tomorrow"
	case days > 1:
		return "in " + itoa(days) + " days"
	case days == -1:
		return "yesterday"
	}
	return itoa(-days) + " days ago"
}

// queryString encodes name/value pairs, leaving out empty values and a
// first page, so URLs stay short.
func queryString(pairs ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1]; v != "" && !(pairs[i] == "page" && v == "1") {
			q.Set(pairs[i], v)
		}
	}
	return q.Encode()
}

// plural is "1 service" or "3 services".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}
