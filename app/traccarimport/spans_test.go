package traccarimport

import (
	"fmt"
	"testing"
)

func TestGaps(t *testing.T) {
	for _, c := range []struct {
		done []span
		s, e int64
		want string
	}{
		{nil, 0, 10, "[{0 10}]"},
		{[]span{{0, 10}}, 0, 10, "[]"},
		{[]span{{2, 4}, {6, 8}}, 0, 10, "[{0 2} {4 6} {8 10}]"},
		{[]span{{-5, 3}, {9, 20}}, 0, 10, "[{3 9}]"},
		{[]span{{20, 30}}, 0, 10, "[{0 10}]"},
		{[]span{{0, 5}, {5, 10}}, 0, 10, "[]"},
	} {
		if got := fmt.Sprint(gaps(c.done, c.s, c.e)); got != c.want {
			t.Errorf("gaps(%v, %d, %d) = %s, want %s", c.done, c.s, c.e, got, c.want)
		}
	}
}

func TestAddSpan(t *testing.T) {
	for _, c := range []struct {
		done             []span
		add              span
		out, removed     string
		mergedStart, end int64
	}{
		{nil, span{0, 10}, "[{0 10}]", "[]", 0, 10},
		{[]span{{0, 10}}, span{10, 20}, "[{0 20}]", "[{0 10}]", 0, 20},                   // touching: one span
		{[]span{{0, 10}, {30, 40}}, span{10, 30}, "[{0 40}]", "[{0 10} {30 40}]", 0, 40}, // fills the hole
		{[]span{{0, 10}}, span{20, 30}, "[{0 10} {20 30}]", "[]", 20, 30},
		{[]span{{20, 30}}, span{0, 10}, "[{0 10} {20 30}]", "[]", 0, 10},
		{[]span{{0, 40}}, span{10, 20}, "[{0 40}]", "[{0 40}]", 0, 40}, // already covered (a recheck)
	} {
		out, removed, merged := addSpan(c.done, c.add)
		if fmt.Sprint(out) != c.out || fmt.Sprint(removed) != c.removed || merged != (span{c.mergedStart, c.end}) {
			t.Errorf("addSpan(%v, %v) = %v, %v, %v; want %s, %s, {%d %d}", c.done, c.add, out, removed, merged,
				c.out, c.removed, c.mergedStart, c.end)
		}
	}
}

func TestPlan(t *testing.T) {
	for _, c := range []struct {
		name           string
		posGaps, evGap []span
		chunk          int64
		want           string
	}{
		{"all missing, in chunks", []span{{0, 25}}, nil, 10, "[{{0 10} true false} {{10 20} true false} {{20 25} true false}]"},
		{"positions done, events missing", nil, []span{{0, 20}}, 10, "[{{0 10} false true} {{10 20} false true}]"},
		{"both missing in part", []span{{5, 15}}, []span{{0, 10}}, 100,
			"[{{0 5} false true} {{5 10} true true} {{10 15} true false}]"},
		{"nothing missing", nil, nil, 10, "[]"},
	} {
		if got := fmt.Sprint(plan(c.posGaps, c.evGap, 0, 25, c.chunk)); got != c.want {
			t.Errorf("%s: plan = %s, want %s", c.name, got, c.want)
		}
	}
}
