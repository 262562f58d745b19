package httpx

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestJSONEncoderNormalizes(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	at := time.Date(2024, 1, 1, 13, 0, 0, 0, berlin)
	for _, c := range []struct {
		name string
		v    any
		want []string
	}{
		{"times in UTC", &model.Position{FixTime: at, DeviceTime: at.Add(time.Second)},
			[]string{`"fixTime":"2024-01-01T12:00:00Z"`, `"deviceTime":"2024-01-01T12:00:01Z"`}},
		{"time pointers in UTC", model.User{ExpirationTime: &at}, []string{`"expirationTime":"2024-01-01T12:00:00Z"`}},
		{"nil time pointers stay null", model.User{}, []string{`"expirationTime":null`}},
		{"nil lists and maps are empty", []*model.Position{{}}, []string{`"geofenceIds":[]`, `"attributes":{}`}},
		{"nil top-level list", []*model.Device(nil), []string{`[]`}},
		{"values behind interfaces", map[string]any{"d": &model.Device{}}, []string{`"attributes":{}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := JSONEncoder(c.v)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("%s lacks %s", out, w)
				}
			}
		})
	}
}

func TestJSONEncoderNil(t *testing.T) {
	out, err := JSONEncoder(nil)
	if err != nil || string(out) != "null" {
		t.Errorf("nil: %s %v", out, err)
	}
}

func BenchmarkJSONEncoderPositions(b *testing.B) {
	list := make([]*model.Position, 1000)
	for i := range list {
		list[i] = &model.Position{DeviceID: 1, FixTime: time.Now(), Attributes: model.Attributes{"sat": 7}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := JSONEncoder(list); err != nil {
			b.Fatal(err)
		}
	}
}
