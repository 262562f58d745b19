package webtest

import "testing"

func TestDecode(t *testing.T) {
	var v struct{ A int }
	r := record(t, func(tb testing.TB) { (&Response{Body: `{"a":3}`}).Decode(tb, &v) })
	r.check(t, false, false)
	if v.A != 3 {
		t.Errorf("decoded %+v", v)
	}
	r = record(t, func(tb testing.TB) { (&Response{Body: "<html>"}).Decode(tb, &v) })
	r.check(t, true, true, "not JSON", "<html>")
}

func TestCheck(t *testing.T) {
	ok := &Response{Status: 200, Body: `{"name":"Truck 1","id":7}`}
	refused := &Response{Status: 403, Body: `{"message":"Forbidden"}`}
	cases := []struct {
		name         string
		r            *Response
		status       int
		want, absent []string
		failed       bool
		fatal        bool
		message      string
	}{
		{name: "all as wanted", r: ok, status: 200, want: []string{`"id":7`}, absent: []string{"password"}},
		{name: "error with a message", r: refused, status: 403, want: []string{"Forbidden"}},
		{name: "other status", r: ok, status: 201, failed: true, fatal: true, message: "GET /x: status 200, want 201"},
		{name: "fragment missing", r: ok, status: 200, want: []string{`"id":8`}, failed: true, message: `lacks "\"id\":8"`},
		{name: "fragment present", r: ok, status: 200, absent: []string{"Truck"}, failed: true, message: `has "Truck"`},
		{name: "error without message", r: &Response{Status: 400, Body: `{}`}, status: 400, failed: true, message: "without message"},
		{name: "error not JSON", r: &Response{Status: 500, Body: "oops"}, status: 500, failed: true, fatal: true, message: "not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := record(t, func(tb testing.TB) { tc.r.Check(tb, "GET /x", tc.status, tc.want, tc.absent) })
			if tc.message == "" {
				rec.check(t, tc.failed, tc.fatal)
			} else {
				rec.check(t, tc.failed, tc.fatal, tc.message)
			}
		})
	}
}

func TestContainsLacks(t *testing.T) {
	r := record(t, func(tb testing.TB) {
		Contains(tb, "page", "<p>Truck 1</p>", "Truck 1", "Van 2")
		Lacks(tb, "page", "<p>Truck 1</p>", "Van 2", "<p>")
	})
	r.check(t, true, false, `page lacks "Van 2"`, `page has "<p>"`)
	if len(r.errors) != 2 {
		t.Errorf("failures %q, want two", r.errors)
	}
}
