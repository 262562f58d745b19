package accounts

import (
	"maps"
	"reflect"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

// selfServiceAttributes are the attributes a read-only user may still set
// on their own account: the display preferences and, as in Traccar, the
// apps' notification tokens and the terms accepted.
var selfServiceAttributes = []string{prefs.ZoneAttribute, prefs.SpeedAttribute, prefs.DistanceAttribute,
	prefs.CurrencyAttribute, "notificationTokens", "termsAccepted"}

var errReadonlySelf = model.Forbidden("A read-only account may change only its password and display preferences (a demo account: only the preferences)")

// selfServiceOnly reports whether a user's change of their own account
// touches nothing but the password and the display preferences (time
// format, map view, the attributes above). Traccar lets a read-only user
// (and the users of a read-only server) change their password and the
// apps' attributes; the display preferences are added here, since the
// profile is such a user's only page. Every other field stays refused, the
// name too as in Traccar, and the restrictions stay with whoever manages
// the account (prepareUser).
//
// A demo account keeps its password: the administrator hands it out, and
// may hand it to more than one caller.
func selfServiceOnly(before, after *model.User) bool {
	b, a := *before, *after
	if demo, _ := before.Attributes["demo"].(bool); !demo {
		a.PasswordHash = b.PasswordHash
	}
	a.TwelveHourFormat, a.CoordinateFormat = b.TwelveHourFormat, b.CoordinateFormat
	a.Map, a.PoiLayer, a.Latitude, a.Longitude, a.Zoom = b.Map, b.PoiLayer, b.Latitude, b.Longitude, b.Zoom
	if sameTime(b.ExpirationTime, a.ExpirationTime) {
		a.ExpirationTime = b.ExpirationTime
	}
	b.Attributes, a.Attributes = withoutSelfService(before.Attributes), withoutSelfService(after.Attributes)
	return reflect.DeepEqual(b, a)
}

func withoutSelfService(attrs model.Attributes) model.Attributes {
	rest := maps.Clone(attrs)
	if rest == nil {
		rest = model.Attributes{}
	}
	for _, name := range selfServiceAttributes {
		delete(rest, name)
	}
	return rest
}
