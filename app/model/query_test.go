package model

import (
	"math"
	"slices"
	"testing"
)

func TestQueryWindow(t *testing.T) {
	list := []int{0, 1, 2, 3, 4}
	for _, c := range []struct {
		q    Query
		want []int
	}{
		{Query{}, list},
		{Query{Limit: 2}, []int{0, 1}},
		{Query{Offset: 3}, []int{3, 4}},
		{Query{Offset: 4, Limit: 2}, []int{4}},
		{Query{Offset: 5, Limit: 2}, []int{}},
		{Query{Offset: math.MaxInt, Limit: math.MaxInt}, []int{}},
		{Query{Offset: 1, Limit: math.MaxInt}, []int{1, 2, 3, 4}},
	} {
		if got := Window(list, c.q); !slices.Equal(got, c.want) {
			t.Errorf("Window(%+v) = %v, want %v", c.q, got, c.want)
		}
		// The pager keeps the same window from a stream and counts it all.
		p := NewPager[int](c.q)
		for _, v := range list {
			p.Add(v)
		}
		if !slices.Equal(p.Items, c.want) || p.Total != len(list) {
			t.Errorf("Pager(%+v) = %v of %d, want %v of %d", c.q, p.Items, p.Total, c.want, len(list))
		}
	}
}

func TestPageQuery(t *testing.T) {
	for _, c := range []struct {
		page, limit, offset int
	}{
		{1, 10, 0}, {0, 10, 0}, {3, 10, 20}, {2, 0, 0}, {math.MaxInt, 100, math.MaxInt},
	} {
		if q := PageQuery(c.page, c.limit); q.Offset != c.offset || q.Limit != c.limit {
			t.Errorf("PageQuery(%d, %d) = %+v, want offset %d", c.page, c.limit, q, c.offset)
		}
	}
}

func TestQueryCheck(t *testing.T) {
	if err := (Query{Offset: 1, Limit: 1}).Check(); err != nil {
		t.Error(err)
	}
	for _, q := range []Query{{Offset: -1}, {Limit: -1}} {
		if ClassOf(q.Check()) != ClassInvalid {
			t.Errorf("%+v accepted", q)
		}
	}
}

func TestQueryMatches(t *testing.T) {
	d := &Device{Name: "Truck", UniqueID: "868ABC", Phone: "+49", Model: "GT06", Contact: "Änne", Category: "bus"}
	for _, c := range []struct {
		v       any
		keyword string
		want    bool
	}{
		{d, "", true},
		{d, "TRUCK", true},
		{d, "abc", true},
		{d, "+4", true},
		{d, "gt0", true},
		{d, "äNNE", true},
		{d, "bus", false}, // category is not searched (Traccar)
		{&User{Name: "Ann", Email: "ann@example.com", Phone: "+1"}, "EXAMPLE", true},
		{&User{Name: "Ann", Email: "ann@example.com", Phone: "+1"}, "+1", false},
		{&Group{Name: "Fleet"}, "lee", true},
		{&Geofence{Name: "Depot", Description: "yard"}, "yard", false},
		{&Driver{Name: "Ann", UniqueID: "RFID-1"}, "rfid", true},
		{&Command{Description: "Stop", Type: "engineStop"}, "engine", false},
		{&ComputedAttribute{Description: "Fuel", Attribute: "fuelLevel"}, "FUEL", true},
		{&Position{}, "x", false},
	} {
		if got := (Query{Keyword: c.keyword}).Matches(c.v); got != c.want {
			t.Errorf("%T %q: %v, want %v", c.v, c.keyword, got, c.want)
		}
	}
}
