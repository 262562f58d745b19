package dashboard

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
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

// stamp is a timestamp as the dashboard shows it (UTC).
func stamp(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// day is a date as the dashboard shows it.
func day(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format(time.DateOnly)
}

// knotsToKmh converts Traccar's speed unit.
func knotsToKmh(knots float64) string { return strconv.FormatFloat(knots*1.852, 'f', 0, 64) + " km/h" }

// money formats an amount with two decimals and thousands separators.
func money(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	intPart, frac := s[:len(s)-3], s[len(s)-3:]
	for i := len(intPart) - 3; i > 0; i -= 3 {
		intPart = intPart[:i] + "," + intPart[i:]
	}
	if neg {
		intPart = "-" + intPart
	}
	return intPart + frac
}

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
