package app

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestFieldLimitsNameFields: every name fieldLimits declares is a string
// field of its type, so a typo cannot leave a field at MaxText unnoticed.
func TestFieldLimitsNameFields(t *testing.T) {
	for typ, limits := range fieldLimits {
		for name, want := range limits {
			if got, ok := MaxLength(typ, name); !ok || got != want {
				t.Errorf("%s.%s: MaxLength %d, %v; want %d", typ.Name(), name, got, ok, want)
			}
		}
	}
	if _, ok := MaxLength(reflect.TypeFor[model.Position](), "protocol"); ok {
		t.Error("Position is never taken from a request, yet has limits")
	}
	if got, ok := MaxLength(reflect.TypeFor[Ticket](), "device.name"); !ok || got != MaxName {
		t.Errorf("Ticket device.name: %d, %v", got, ok)
	}
	if got, ok := MaxLength(reflect.TypeFor[model.Command](), "description"); !ok || got != MaxText {
		t.Errorf("an undeclared string field: %d, %v; want MaxText", got, ok)
	}
}

func TestCheckLengths(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name string
		v    any
		want string // "" for no error, else the description's start
	}{
		{"at the limit", &model.Device{Name: x(MaxName), UniqueID: x(MaxUniqueID)}, ""},
		{"uniqueId over", &model.Device{Name: "n", UniqueID: x(MaxUniqueID + 1)}, "uniqueId may have at most 128 characters"},
		{"characters, not bytes", &model.Device{Name: strings.Repeat("é", MaxName)}, ""},
		{"a character over", &model.Device{Name: strings.Repeat("é", MaxName+1)}, "name may have at most 256 characters"},
		{"an undeclared field has MaxText", &model.Device{Contact: x(MaxText + 1)}, "contact may have at most 4096 characters"},
		{"e-mail", &model.User{Email: x(MaxEmail-12) + "@example.com" + "x"}, "email may have at most 254 characters"},
		{"password in characters", &model.User{Password: x(MaxPassword + 1)}, "password may have at most 72 characters"},
		{"geofence area", &model.Geofence{Area: x(MaxArea + 1)}, "area may have at most 65536 characters"},
		{"nested struct", &Ticket{Device: &TicketDevice{Name: x(MaxName + 1)}}, "device.name may have at most 256 characters"},
		{"nil nested struct", &Ticket{Title: "t"}, ""},
		{"each of a list", &ServiceRecord{ServiceTasks: []string{"oil", x(MaxName + 1)}}, "serviceTasks may have at most 256"},
		{"attribute key", &model.Device{Attributes: model.Attributes{x(MaxAttributeKey + 1): 1}}, "attributes keys may have at most 128"},
		{"attribute value", &model.Group{Attributes: model.Attributes{"note": x(MaxText + 1)}}, "attributes.note may have at most 4096"},
		{"nested attribute value", &model.Server{Attributes: model.Attributes{"a": map[string]any{"b": []any{1, x(MaxText + 1)}}}}, "attributes.a.b may have at most 4096"},
		{"nested attribute key", &model.User{Attributes: model.Attributes{"a": map[string]any{x(MaxAttributeKey + 1): true}}}, "attributes.a keys may have"},
		{"attributes at the limit", &model.Driver{Attributes: model.Attributes{x(MaxAttributeKey): x(MaxText)}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkLengths(tt.v)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e, ok := err.(*model.Error)
			if !ok || e.Class != model.ClassInvalid || !strings.HasPrefix(e.Description, tt.want) {
				t.Fatalf("error %v, want an invalid request saying %q", err, tt.want)
			}
		})
	}
}

// BenchmarkCheckLengths: the check on a device as Traccar clients send it.
func BenchmarkCheckLengths(b *testing.B) {
	d := &model.Device{Name: "Truck 12", UniqueID: "356307042441013", Phone: "+37060000000", Model: "FMB920",
		Contact: "Dispatch", Category: "truck", Attributes: model.Attributes{"speedLimit": 48.6, "fuelTank": "80 l",
			"web.reportColor": "#ff0000", "processing.copyAttributes": "driverUniqueId,fuel", "mileage": "12 km/l",
			"nested": map[string]any{"a": []any{"x", "y", 1.0}}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := checkLengths(d); err != nil {
			b.Fatal(err)
		}
	}
}
