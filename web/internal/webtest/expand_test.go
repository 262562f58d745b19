package webtest

import "testing"

func TestExpand(t *testing.T) {
	ids := map[string]int64{"d1": 7, "user2": 12}
	cases := []struct {
		name, in, want string
		fails          bool
	}{
		{name: "no placeholder", in: `{"name":"x"}`, want: `{"name":"x"}`},
		{name: "one", in: "/api/devices/{d1}", want: "/api/devices/7"},
		{name: "several", in: `{"deviceId":{d1},"userId":{user2},"again":{d1}}`, want: `{"deviceId":7,"userId":12,"again":7}`},
		{name: "not a name", in: "{D1} {} {d-1}", want: "{D1} {} {d-1}"},
		{name: "the text of a placeholder", in: "/tiles/{{z}}/{{d1}}/{d1}", want: "/tiles/{z}/{d1}/7"},
		{name: "JSON objects", in: `{"a":{"b":{d1}}}`, want: `{"a":{"b":7}}`},
		{name: "unknown name", in: "/api/devices/{d9}", fails: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			r := record(t, func(tb testing.TB) { got = Expand(tb, ids, tc.in) })
			if tc.fails {
				r.check(t, true, true, "{d9}")
				return
			}
			r.check(t, false, false)
			if got != tc.want {
				t.Errorf("Expand(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestExpandAll(t *testing.T) {
	ids := map[string]int64{"d1": 7}
	got := ExpandAll(t, ids, []string{`"id":{d1}`, "plain"})
	if len(got) != 2 || got[0] != `"id":7` || got[1] != "plain" {
		t.Errorf("ExpandAll = %q", got)
	}
	if got := ExpandAll(t, ids, nil); len(got) != 0 {
		t.Errorf("ExpandAll(nil) = %q", got)
	}
	record(t, func(tb testing.TB) { ExpandAll(tb, ids, []string{"{d1}", "{nope}"}) }).check(t, true, true, "{nope}")
}
