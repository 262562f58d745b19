package app_test

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// setField sets a position field by its JSON name, or else an attribute.
func setField(p *model.Position, field string, v any) {
	switch field {
	case "speed":
		p.Speed = v.(float64)
	case "course":
		p.Course = v.(float64)
	case "altitude":
		p.Altitude = v.(float64)
	case "accuracy":
		p.Accuracy = v.(float64)
	default:
		p.Attributes[field] = v
	}
}

// fieldOf reads what setField set, from a stored position.
func fieldOf(p *model.Position, field string) (any, bool) {
	switch field {
	case "speed":
		return p.Speed, true
	case "course":
		return p.Course, true
	case "altitude":
		return p.Altitude, true
	case "accuracy":
		return p.Accuracy, true
	}
	v, ok := p.Attributes[field]
	return v, ok
}

func asFloat(v any) float64 { return reflect.ValueOf(v).Convert(reflect.TypeFor[float64]()).Float() }

// A value outside its physical range costs its field, not the position:
// the position is stored without it and the removal is counted by field.
func TestIngestRemovesImpossibleValues(t *testing.T) {
	tests := []struct {
		name  string
		field string
		value any
		// removed is the counter label; "" when the value is kept.
		removed string
	}{
		{"speed at the receivers' 1,000 kn limit", "speed", 1000.0, ""},
		{"speed above it", "speed", 1000.5, "speed"},
		{"speed of 10^20 knots", "speed", 1e20, "speed"},
		{"negative speed", "speed", -0.1, "speed"},
		{"NaN speed", "speed", math.NaN(), "speed"},
		{"course 360 is north, kept", "course", 360.0, ""},
		{"course -91", "course", -91.0, "course"},
		{"course 4,088,646,642", "course", 4088646642.0, "course"},
		{"altitude at the Dead Sea", "altitude", -430.0, ""},
		{"altitude of a stratospheric balloon", "altitude", 38000.0, ""},
		{"altitude 1,213,728 m", "altitude", 1213728.0, "altitude"},
		{"infinite altitude", "altitude", math.Inf(-1), "altitude"},
		{"accuracy of a cell fix", "accuracy", 5000.0, ""},
		{"negative accuracy", "accuracy", -5.0, "accuracy"},
		{"batteryLevel full", "batteryLevel", 100, ""},
		{"batteryLevel 860,000,008", "batteryLevel", int64(860000008), "batteryLevel"},
		{"batteryLevel below empty", "batteryLevel", -1.0, "batteryLevel"},
		{"batteryLevel as text is not judged", "batteryLevel", "85%", ""},
		{"battery volts", "battery", 4.1, ""},
		{"battery of a raw reading", "battery", 733, ""},
		{"negative power", "power", -12.0, "power"},
		{"power of a truck", "power", 27.6, ""},
		{"sat as a byte", "sat", uint8(12), ""},
		{"sat 300", "sat", 300, "sat"},
		{"satVisible negative", "satVisible", -3, "satVisible"},
		{"hdop no fix (NMEA 99.99)", "hdop", 99.99, ""},
		{"hdop 6553.5", "hdop", 6553.5, "hdop"},
		{"rssi in dBm", "rssi", -113, ""},
		{"rssi CSQ unknown", "rssi", 99, ""},
		{"rssi 1000", "rssi", 1000, "rssi"},
		{"odometer at uint32's end", "odometer", int64(math.MaxUint32), ""},
		{"negative odometer", "odometer", int64(-1), "odometer"},
		{"tripOdometer of 10^15 m", "tripOdometer", 1e15, "tripOdometer"},
		{"hours negative", "hours", -1.0, "hours"},
		{"fuelLevel raw 4095", "fuelLevel", int64(4095), ""},
		{"fuel negative", "fuel", -20.0, "fuel"},
		{"temp1 of a freezer", "temp1", -40.0, ""},
		{"temp12 below absolute zero", "temp12", -300.0, "temp"},
		{"coolantTemp 5000", "coolantTemp", 5000.0, "coolantTemp"},
		{"tempX is not a numbered temperature", "tempX", -300.0, ""},
		{"an unranged attribute keeps any finite number", "io200", -1e300, ""},
		{"NaN in an unranged attribute", "io200", math.NaN(), "other"},
		{"infinity in an unranged attribute", "adc1", float32(math.Inf(1)), "other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			p := pos(0, 54.9, 24.0, 10, model.Attributes{"ignition": true})
			setField(p, tt.field, tt.value)
			if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{p}); err != nil {
				t.Fatal(err)
			}
			stored, err := f.core.Fleet.Positions(f.admin, fleet.PositionQuery{DeviceID: f.dev.ID, From: t0, To: t0.Add(time.Hour)})
			if err != nil || len(stored) != 1 {
				t.Fatalf("stored %d positions (%v), want 1", len(stored), err)
			}
			got, present := fieldOf(stored[0], tt.field)
			switch {
			case tt.removed == "":
				if s, ok := tt.value.(string); ok && got != s || !ok && (!present || asFloat(got) != asFloat(tt.value)) {
					t.Errorf("%s = %v (present %v), want %v kept", tt.field, got, present, tt.value)
				}
			case present && got != 0.0:
				t.Errorf("%s = %v, want it removed", tt.field, got)
			}
			if stored[0].Speed != 10 && tt.field != "speed" || stored[0].Attributes["ignition"] != true {
				t.Errorf("the rest of the position changed: %+v", stored[0])
			}
			removed := f.core.Stats().FieldsRemoved
			for label, n := range removed {
				if want := map[bool]uint64{true: 1}[label == tt.removed]; n != want {
					t.Errorf("removed[%s] = %d, want %d", label, n, want)
				}
			}
			if _, listed := removed[tt.removed]; tt.removed != "" && !listed {
				t.Errorf("no counter for %q in %v", tt.removed, removed)
			}
		})
	}
}

// A removed speed is no speed: the position is not "moving" on its account.
func TestRemovedSpeedDoesNotMove(t *testing.T) {
	f := newFixture(t)
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(0, 54.9, 24.0, 1e20, nil)}); err != nil {
		t.Fatal(err)
	}
	latest, _ := f.core.Fleet.Positions(f.admin, fleet.PositionQuery{})
	if len(latest) != 1 || latest[0].Speed != 0 || latest[0].Attributes["motion"] != false {
		t.Fatalf("latest = %+v, want speed 0 and motion false", latest)
	}
	if ev := f.events(); len(ev) != 1 || ev[0] != "deviceOnline" {
		t.Fatalf("events = %v, want only deviceOnline (no overspeed, no moving)", ev)
	}
}
