package accounts

import (
	_ "embed"
	"strings"
	"sync"
	_ "time/tzdata" // every listed zone loads on hosts without a zoneinfo database
)

// timezoneList is the IANA database's zones and links (tzdata 2025b's
// tzdata.zi, one name a line): Go offers no list of the zones it knows.
//
//go:embed timezones.txt
var timezoneList string

// Timezones lists the zone names a user or device may choose, as
// Traccar's /api/server/timezones does (Java's TimeZone ids).
var Timezones = sync.OnceValue(func() []string { return strings.Fields(timezoneList) })
