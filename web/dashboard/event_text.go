package dashboard

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// Texts the report tables share: the reports page and the vehicle page
// list the same trips, stops and events.

// eventRow is one event with its vehicle's name and what it concerns.
type eventRow struct {
	Device string
	Event  *model.Event
	Detail string
}

// eventDetail names what an event concerns: its alarm, geofence,
// maintenance reminder or command result.
func eventDetail(r *fleet.Report, e *model.Event) string {
	alarm, _ := e.Attributes["alarm"].(string)
	result, _ := e.Attributes["result"].(string)
	var parts []string
	for _, s := range []string{words(alarm), r.Name(model.KindGeofence, e.GeofenceID), r.Name(model.KindMaintenance, e.MaintenanceID), result} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// words spells a Traccar name in words: "deviceOverspeed" is "device
// overspeed".
func words(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// eventLabel is an event type as the alert forms name it ("Speeding"),
// else in words.
func eventLabel(typ string) string {
	if l, ok := eventLabels[typ]; ok {
		return l
	}
	return nameLabel(typ)
}

// nameLabel is a Traccar name as a label: "engineStop" is "Engine stop".
func nameLabel(name string) string {
	w := []rune(words(name))
	if len(w) > 0 {
		w[0] = unicode.ToUpper(w[0])
	}
	return string(w)
}

// durationText is milliseconds as seconds, minutes or hours and minutes
// ("1 h 05 min").
func durationText(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + " s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + " min"
	}
	m := int(d.Minutes()) % 60
	return strconv.Itoa(int(d.Hours())) + " h " + strconv.Itoa(m/10) + strconv.Itoa(m%10) + " min"
}

// place is an address when the report knows one, else coordinates.
func place(address *string, lat, lon float64) string {
	if address != nil && *address != "" {
		return *address
	}
	return coords(&model.Position{Latitude: lat, Longitude: lon})
}
