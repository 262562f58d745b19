package webtest

import "testing"

func TestExpand(t *testing.T) {
	w := &World{IDs: map[string]int64{"d1": 7, "user2": 12}, Values: map[string]string{"token": "t-1"}}
	cases := []struct {
		name, in, want string
		fails          bool
	}{
		{name: "no placeholder", in: `{"name":"x"}`, want: `{"name":"x"}`},
		{name: "one", in: "/api/devices/{d1}", want: "/api/devices/7"},
		{name: "a value", in: `{"token":"{token}"}`, want: `{"token":"t-1"}`},
		{name: "several", in: `{"deviceId":{d1},"userId":{user2},"again":{d1}}`, want: `{"deviceId":7,"userId":12,"again":7}`},
		{name: "not a name", in: "{D1} {} {d-1}", want: "{D1} {} {d-1}"},
		{name: "the text of a placeholder", in: "/tiles/{{z}}/{{d1}}/{d1}", want: "/tiles/{z}/{d1}/7"},
		{name: "JSON objects", in: `{"a":{"b":{d1}}}`, want: `{"a":{"b":7}}`},
		{name: "unknown name", in: "/api/devices/{d9}", fails: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			r := record(t, func(tb testing.TB) { got = w.Expand(tb, tc.in) })
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
	w := &World{IDs: map[string]int64{"d1": 7}}
	got := w.expandAll(t, []string{`"id":{d1}`, "plain"})
	if len(got) != 2 || got[0] != `"id":7` || got[1] != "plain" {
		t.Errorf("expandAll = %q", got)
	}
	if got := w.expandAll(t, nil); len(got) != 0 {
		t.Errorf("expandAll(nil) = %q", got)
	}
	record(t, func(tb testing.TB) { w.expandAll(tb, []string{"{d1}", "{nope}"}) }).check(t, true, true, "{nope}")
}
