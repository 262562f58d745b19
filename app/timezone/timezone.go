// Package timezone lists the time zones users, devices and reports may
// name, and loads them on any host.
package timezone

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // every listed zone loads on hosts without a zoneinfo database
)

// list is the IANA database's zones and links (tzdata 2025b's tzdata.zi,
// one name a line): Go offers no list of the zones it knows.
//
//go:embed zones.txt
var list string

// Names lists the zone names, sorted, as Traccar's /api/server/timezones
// lists Java's zone ids.
var Names = sync.OnceValue(func() []string { return strings.Fields(list) })

// Load returns the named zone, or false for a name not in Names (an empty
// one, a typo, a path).
func Load(name string) (*time.Location, bool) {
	if _, found := slices.BinarySearch(Names(), name); !found {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	return loc, err == nil
}
