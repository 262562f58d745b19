package limits

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// note and noteItem stand for a domain's request types: a nested struct
// and a list of strings.
type note struct {
	Title string    `json:"title"`
	Item  *noteItem `json:"item"`
	Tags  []string  `json:"tags"`
}

type noteItem struct {
	Name string `json:"name"`
}

func (note) FieldLimits() map[string]int {
	return map[string]int{"title": model.MaxName, "tags": model.MaxName}
}
func (noteItem) FieldLimits() map[string]int { return map[string]int{"name": model.MaxName} }

// TestFieldLimitsNameFields: every name the kernel's types declare is a
// string field of its type, so a typo cannot leave a field at model.MaxText
// unnoticed.
func TestFieldLimitsNameFields(t *testing.T) {
	for _, v := range []model.Limited{model.User{}, model.Device{}, model.Group{}, model.Command{}, model.Geofence{},
		model.Driver{}, model.ComputedAttribute{}, model.Server{}, note{}, noteItem{}} {
		if err := Verify(reflect.TypeOf(v)); err != nil {
			t.Error(err)
		}
	}
	if _, ok := MaxLength(reflect.TypeFor[model.Position](), "protocol"); ok {
		t.Error("Position is never taken from a request, yet has limits")
	}
	if got, ok := MaxLength(reflect.TypeFor[note](), "item.name"); !ok || got != model.MaxName {
		t.Errorf("note item.name: %d, %v", got, ok)
	}
	if got, ok := MaxLength(reflect.TypeFor[model.Command](), "description"); !ok || got != model.MaxText {
		t.Errorf("an undeclared string field: %d, %v; want model.MaxText", got, ok)
	}
}

func TestCheck(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name string
		v    any
		want string // "" for no error, else the description's start
	}{
		{"at the limit", &model.Device{Name: x(model.MaxName), UniqueID: x(model.MaxUniqueID)}, ""},
		{"uniqueId over", &model.Device{Name: "n", UniqueID: x(model.MaxUniqueID + 1)}, "uniqueId may have at most 128 characters"},
		{"characters, not bytes", &model.Device{Name: strings.Repeat("é", model.MaxName)}, ""},
		{"a character over", &model.Device{Name: strings.Repeat("é", model.MaxName+1)}, "name may have at most 256 characters"},
		{"an undeclared field has model.MaxText", &model.Device{Contact: x(model.MaxText + 1)}, "contact may have at most 4096 characters"},
		{"e-mail", &model.User{Email: x(model.MaxEmail-12) + "@example.com" + "x"}, "email may have at most 254 characters"},
		{"password in characters", &model.User{Password: x(model.MaxPassword + 1)}, "password may have at most 72 characters"},
		{"geofence area", &model.Geofence{Area: x(model.MaxArea + 1)}, "area may have at most 65536 characters"},
		{"nested struct", &note{Item: &noteItem{Name: x(model.MaxName + 1)}}, "item.name may have at most 256 characters"},
		{"nil nested struct", &note{Title: "t"}, ""},
		{"each of a list", &note{Tags: []string{"oil", x(model.MaxName + 1)}}, "tags may have at most 256"},
		{"attribute key", &model.Device{Attributes: model.Attributes{x(model.MaxAttributeKey + 1): 1}}, "attributes keys may have at most 128"},
		{"attribute value", &model.Group{Attributes: model.Attributes{"note": x(model.MaxText + 1)}}, "attributes.note may have at most 4096"},
		{"nested attribute value", &model.Server{Attributes: model.Attributes{"a": map[string]any{"b": []any{1, x(model.MaxText + 1)}}}}, "attributes.a.b may have at most 4096"},
		{"nested attribute key", &model.User{Attributes: model.Attributes{"a": map[string]any{x(model.MaxAttributeKey + 1): true}}}, "attributes.a keys may have"},
		{"attributes at the limit", &model.Driver{Attributes: model.Attributes{x(model.MaxAttributeKey): x(model.MaxText)}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.v)
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

// BenchmarkCheck: the check on a device as Traccar clients send it.
func BenchmarkCheck(b *testing.B) {
	d := &model.Device{Name: "Truck 12", UniqueID: "356307042441013", Phone: "+37060000000", Model: "FMB920",
		Contact: "Dispatch", Category: "truck", Attributes: model.Attributes{"speedLimit": 48.6, "fuelTank": "80 l",
			"web.reportColor": "#ff0000", "processing.copyAttributes": "driverUniqueId,fuel", "mileage": "12 km/l",
			"nested": map[string]any{"a": []any{"x", "y", 1.0}}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(d); err != nil {
			b.Fatal(err)
		}
	}
}
