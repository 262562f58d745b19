package prefs

import "github.com/fleetd/fleetd/app/model"

// Set stores a display preference (ZoneAttribute, SpeedAttribute,
// DistanceAttribute, CurrencyAttribute) in a user's or the server's
// attributes: empty removes it, so the next layer applies; a value
// ValidUnit refuses is an error and attrs is left as it was.
func Set(attrs model.Attributes, attribute, value string) error {
	if value == "" {
		delete(attrs, attribute)
		return nil
	}
	if !ValidUnit(attribute, value) {
		return model.Invalid("%q is not a valid %s", value, labels[attribute])
	}
	attrs[attribute] = value
	return nil
}

// labels name the preferences in error messages.
var labels = map[string]string{
	ZoneAttribute:     "time zone",
	SpeedAttribute:    "speed unit",
	DistanceAttribute: "distance unit",
	CurrencyAttribute: "currency (a three-letter ISO 4217 code such as EUR)",
}
