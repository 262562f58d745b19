package httpx

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestDecodeMerges(t *testing.T) {
	stored := model.Device{Base: model.Base{ID: 7}, Name: "Truck", Phone: "123", Attributes: model.Attributes{"a": 1.0, "b": 2.0}}
	for _, c := range []struct {
		name, body string
		want       model.Device
	}{
		{"absent fields keep their value", `{"name":"Van"}`,
			model.Device{Base: model.Base{ID: 7}, Name: "Van", Phone: "123", Attributes: model.Attributes{"a": 1.0, "b": 2.0}}},
		{"attributes are replaced, not merged", `{"attributes":{"b":3}}`,
			model.Device{Base: model.Base{ID: 7}, Name: "Truck", Phone: "123", Attributes: model.Attributes{"b": 3.0}}},
		{"null attributes clear the map", `{"attributes":null}`,
			model.Device{Base: model.Base{ID: 7}, Name: "Truck", Phone: "123"}},
		{"unknown fields are ignored", `{"name":"Van","extra":{"x":1}}`,
			model.Device{Base: model.Base{ID: 7}, Name: "Van", Phone: "123", Attributes: model.Attributes{"a": 1.0, "b": 2.0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := stored
			d.Attributes = model.Attributes{"a": 1.0, "b": 2.0}
			if err := decodeObject([]byte(c.body), &d); err != nil {
				t.Fatal(err)
			}
			if d.Name != c.want.Name || d.Phone != c.want.Phone || d.ID != c.want.ID || len(d.Attributes) != len(c.want.Attributes) {
				t.Fatalf("got %+v, want %+v", d, c.want)
			}
			for k, v := range c.want.Attributes {
				if d.Attributes[k] != v {
					t.Errorf("attribute %s = %v, want %v", k, d.Attributes[k], v)
				}
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{``, "body is required"},
		{`   `, "body is required"},
		{`{"name":`, "malformed JSON"},
		{`nul`, "malformed JSON"},
		{`null`, "must be a JSON object"},
		{`[1,2]`, "must be an object, not array"},
		{`"text"`, "must be an object, not string"},
		{`{"name":5}`, `field "name" must be a string, not number`},
		{`{"groupId":"seven"}`, `field "groupId" must be an integer, not string`},
		{`{"groupId":"1.5"}`, `field "groupId" must be an integer, not string`},
		{`{"groupId":1.5}`, `field "groupId" must be an integer`},
		{`{"disabled":"yes"}`, `field "disabled" must be a boolean`},
		{`{"attributes":[]}`, `field "attributes" must be an object`},
		{`{"expirationTime":"tomorrow"}`, "not ISO 8601"},
		{`{"name":"a"} trailing`, "malformed JSON"},
	} {
		var d model.Device
		err := decodeObject([]byte(c.body), &d)
		if !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("decodeObject(%q) = %v, want invalid with %q", c.body, err, c.want)
		}
	}
}

// Numbers as strings are taken, as Traccar (Jackson) takes them: its web
// app sends the text of its input boxes ("start":"1000").
func TestDecodeNumericStrings(t *testing.T) {
	var d model.Device
	if err := decodeObject([]byte(`{"groupId":"7","calendarId":"","name":"van"}`), &d); err != nil || d.GroupID != 7 || d.Name != "van" {
		t.Errorf("device: %+v, %v", d, err)
	}
	m := model.Maintenance{Base: model.Base{ID: 3}, Period: 9}
	if err := decodeObject([]byte(`{"id":"3","start":" 1000.5 ","period":"5e3","type":"odometer"}`), &m); err != nil ||
		m.ID != 3 || m.Start != 1000.5 || m.Period != 5000 {
		t.Errorf("maintenance: %+v, %v", m, err)
	}
}

func TestDecodeTimes(t *testing.T) {
	var u model.User
	if err := decodeObject([]byte(`{"expirationTime":"2030-01-01T02:00:00.000+02:00"}`), &u); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC); u.ExpirationTime == nil || !u.ExpirationTime.Equal(want) {
		t.Errorf("expirationTime %v, want %v", u.ExpirationTime, want)
	}
}
