package app_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// TestComputedIngest runs each attribute through the real ingest on a
// position with speed 20 and attributes fuel 7.5, ignition true and
// name "x".
func TestComputedIngest(t *testing.T) {
	tests := []struct {
		name       string
		attrs      []model.ComputedAttribute
		want       model.Attributes // attributes the position must have
		absent     []string         // attributes it must not have
		logsOnce   bool             // a failure is logged, once for two positions
		positionOK bool
	}{
		{name: "number from fields", attrs: []model.ComputedAttribute{{Attribute: "kmh", Expression: "speed * 1.852", Type: "number"}},
			want: model.Attributes{"kmh": 37.04}},
		{name: "number from an integer result", attrs: []model.ComputedAttribute{{Attribute: "n", Expression: "len(name) + 1", Type: "number"}},
			want: model.Attributes{"n": 2.0}},
		{name: "number from a numeric string", attrs: []model.ComputedAttribute{{Attribute: "n", Expression: `"3.5"`, Type: "number"}},
			want: model.Attributes{"n": 3.5}},
		{name: "boolean from attributes", attrs: []model.ComputedAttribute{{Attribute: "low", Expression: "fuel < 10 && ignition", Type: "boolean"}},
			want: model.Attributes{"low": true}},
		{name: "string from a number", attrs: []model.ComputedAttribute{{Attribute: "s", Expression: "speed", Type: "string"}},
			want: model.Attributes{"s": "20"}},
		{name: "a computed value may drive events: overrides an attribute",
			attrs: []model.ComputedAttribute{{Attribute: "ignition", Expression: "speed > 100", Type: "boolean"}},
			want:  model.Attributes{"ignition": false}},
		{name: "higher priority first, later ones read it", attrs: []model.ComputedAttribute{
			{Attribute: "b", Expression: "a * 2", Type: "number", Priority: 1},
			{Attribute: "a", Expression: "speed + 1", Type: "number", Priority: 5},
		}, want: model.Attributes{"a": 21.0, "b": 42.0}},
		{name: "an unknown variable gives no value", attrs: []model.ComputedAttribute{{Attribute: "u", Expression: "nothing", Type: "number"}},
			absent: []string{"u"}},
		{name: "a type mismatch is skipped and logged once", attrs: []model.ComputedAttribute{
			{Attribute: "bad", Expression: "name", Type: "boolean"},
			{Attribute: "good", Expression: "true", Type: "boolean"},
		}, want: model.Attributes{"good": true}, absent: []string{"bad"}, logsOnce: true},
		{name: "a run-time error is skipped and logged once", attrs: []model.ComputedAttribute{
			{Attribute: "bad", Expression: "fuel / name", Type: "number"},
		}, absent: []string{"bad"}, logsOnce: true},
		{name: "an infinite result is skipped and logged once: JSON cannot hold it", attrs: []model.ComputedAttribute{
			{Attribute: "bad", Expression: "speed / 0", Type: "number"},
		}, absent: []string{"bad"}, logsOnce: true},
		{name: "a NaN result is skipped and logged once", attrs: []model.ComputedAttribute{
			{Attribute: "bad", Expression: `"NaN"`, Type: "number"},
		}, absent: []string{"bad"}, logsOnce: true},
		{name: "work beyond the memory budget is refused, not run", attrs: []model.ComputedAttribute{
			{Attribute: "big", Expression: "len(map(1..10000000, # * 2))", Type: "number"},
		}, absent: []string{"big"}, logsOnce: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			db := storagetest.Open(t)
			core := app.New(db, app.Options{BcryptCost: 4, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			dev, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = "d", "1"; return nil })
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range tt.attrs {
				stored, err := core.Fleet.ComputedAttributes.Create(model.System(), func(v *model.ComputedAttribute) error { *v = a; return nil })
				if err != nil {
					t.Fatal(err)
				}
				err = core.Fleet.Link(model.System(), model.Permission{OwnerKind: model.KindDevice, OwnerID: dev.ID, PropKind: model.KindAttribute, PropID: stored.ID})
				if err != nil {
					t.Fatal(err)
				}
			}
			var p *model.Position
			for m := range 2 {
				p = pos(m, 54.9, 24.0, 20, model.Attributes{"fuel": 7.5, "ignition": true, "name": "x"})
				if err := core.Ingest.Ingest(dev.ID, []*model.Position{p}); err != nil {
					t.Fatalf("ingest failed: %v", err)
				}
			}
			for k, v := range tt.want {
				if p.Attributes[k] != v {
					t.Errorf("%s = %#v, want %#v", k, p.Attributes[k], v)
				}
			}
			for _, k := range tt.absent {
				if v, ok := p.Attributes[k]; ok {
					t.Errorf("%s = %#v, want none", k, v)
				}
			}
			if n := strings.Count(logs.String(), "computed attribute skipped"); n != map[bool]int{true: 1}[tt.logsOnce] {
				t.Errorf("logged %d times: %s", n, logs.String())
			}
		})
	}
}

func TestComputedAttributeRefused(t *testing.T) {
	f := newFixture(t)
	for _, a := range []model.ComputedAttribute{
		{Attribute: "x", Expression: "speed +", Type: "number"},
		{Attribute: "x", Expression: strings.Repeat("1+", 600) + "1", Type: "number"},
		{Attribute: "x", Expression: "1", Type: "integer"},
		{Attribute: "has space", Expression: "1", Type: "number"},
		{Attribute: "", Expression: "1", Type: "number"},
	} {
		_, err := f.core.Fleet.ComputedAttributes.Create(f.admin, func(v *model.ComputedAttribute) error { *v = a; return nil })
		if model.ClassOf(err) != model.ClassInvalid {
			t.Errorf("%+v: %v, want invalid", a, err)
		}
	}
}

// BenchmarkIngestComputed is the ingest of one position (NoSync store)
// with no computed attribute and with three linked to the device.
func BenchmarkIngestComputed(b *testing.B) {
	for _, n := range []int{0, 3} {
		b.Run(fmt.Sprint(n, "-attributes"), func(b *testing.B) {
			db := storagetest.Open(b)
			core := app.New(db, app.Options{BcryptCost: 4, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			dev, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = "d", "1"; return nil })
			if err != nil {
				b.Fatal(err)
			}
			exprs := []string{"speed * 1.852", "fuel < 10 && ignition", `"12 km/l"`}
			types := []string{"number", "boolean", "string"}
			for i := range n {
				a, err := core.Fleet.ComputedAttributes.Create(model.System(), func(v *model.ComputedAttribute) error {
					v.Attribute, v.Expression, v.Type = fmt.Sprint("a", i), exprs[i], types[i]
					return nil
				})
				if err == nil {
					err = core.Fleet.Link(model.System(), model.Permission{OwnerKind: model.KindDevice, OwnerID: dev.ID, PropKind: model.KindAttribute, PropID: a.ID})
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			at := time.Now().Add(-time.Hour)
			i := 0
			for b.Loop() {
				p := &model.Position{FixTime: at.Add(time.Duration(i) * time.Millisecond), Valid: true, Latitude: 54.9, Longitude: 24,
					Speed: 20, Attributes: model.Attributes{"fuel": 7.5, "ignition": true}}
				i++
				if err := core.Ingest.Ingest(dev.ID, []*model.Position{p}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
