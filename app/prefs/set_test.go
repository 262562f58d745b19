package prefs_test

import (
	"maps"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

func TestSet(t *testing.T) {
	start := model.Attributes{prefs.SpeedAttribute: prefs.Mph, "other": "kept"}
	tests := []struct {
		name, attribute, value string
		ok                     bool
		want                   model.Attributes
	}{
		{"speed", prefs.SpeedAttribute, prefs.Knots, true, model.Attributes{prefs.SpeedAttribute: prefs.Knots, "other": "kept"}},
		{"empty removes", prefs.SpeedAttribute, "", true, model.Attributes{"other": "kept"}},
		{"zone", prefs.ZoneAttribute, "Asia/Tokyo", true, model.Attributes{prefs.SpeedAttribute: prefs.Mph, prefs.ZoneAttribute: "Asia/Tokyo", "other": "kept"}},
		{"currency", prefs.CurrencyAttribute, "EUR", true, model.Attributes{prefs.SpeedAttribute: prefs.Mph, prefs.CurrencyAttribute: "EUR", "other": "kept"}},
		{"bad zone", prefs.ZoneAttribute, "Mars/Olympus", false, start},
		{"bad currency", prefs.CurrencyAttribute, "EURO", false, start},
		{"bad distance", prefs.DistanceAttribute, "furlong", false, start},
		{"not a preference", "colour", "red", false, start},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := maps.Clone(start)
			err := prefs.Set(attrs, tt.attribute, tt.value)
			if (err == nil) != tt.ok || (err != nil && model.ClassOf(err) != model.ClassInvalid) {
				t.Fatalf("Set(%s, %q) = %v", tt.attribute, tt.value, err)
			}
			if !maps.Equal(attrs, tt.want) {
				t.Errorf("attributes %v, want %v", attrs, tt.want)
			}
		})
	}
}
