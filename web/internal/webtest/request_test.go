package webtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// echo answers with the request's method, content type and body, sets two
// cookies named c (the later one wins) and answers with the status the
// query asks for.
func echo() *fiber.App {
	f := fiber.New()
	f.All("/echo", func(c *fiber.Ctx) error {
		c.Cookie(&fiber.Cookie{Name: "c", Value: "first"})
		c.Cookie(&fiber.Cookie{Name: "c", Value: "second"})
		c.Set("X-Test", "yes")
		return c.Status(c.QueryInt("status", 200)).SendString(c.Method() + " " + c.Get("Content-Type") + " " + string(c.Body()))
	})
	return f
}

func TestDo(t *testing.T) {
	cases := []struct {
		name, method, path, contentType, body string
		status                                int
		want                                  string
	}{
		{"plain", "GET", "/echo", "", "", 200, "GET  "},
		{"json body", "POST", "/echo?status=201", "application/json", `{"a":1}`, 201, `POST application/json {"a":1}`},
		{"not found", "GET", "/nowhere", "", "", 404, "Cannot GET /nowhere"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Do(t, echo(), NewRequest(tc.method, tc.path, tc.contentType, tc.body))
			if r.Status != tc.status || r.Body != tc.want {
				t.Errorf("%s %s = %d %q, want %d %q", tc.method, tc.path, r.Status, r.Body, tc.status, tc.want)
			}
		})
	}
}

func TestNewJSONRequest(t *testing.T) {
	cases := []struct{ body, want string }{
		{"", "PATCH  "},
		{`{"a":1}`, `PATCH application/json {"a":1}`},
	}
	for _, tc := range cases {
		if r := Do(t, echo(), NewJSONRequest("PATCH", "/echo", tc.body)); r.Body != tc.want {
			t.Errorf("body %q: echoed %q, want %q", tc.body, r.Body, tc.want)
		}
	}
}

func TestCookie(t *testing.T) {
	r := Do(t, echo(), NewRequest("GET", "/echo", "", ""))
	if r.Header.Get("X-Test") != "yes" {
		t.Errorf("headers %v lack X-Test", r.Header)
	}
	if c := r.Cookie("c"); c == nil || c.Value != "second" {
		t.Errorf("Cookie(c) = %v, want the later one", c)
	}
	if c := r.Cookie("missing"); c != nil {
		t.Errorf("Cookie(missing) = %v, want nil", c)
	}
}

func TestServe(t *testing.T) {
	addr := Serve(t, echo())
	res, err := http.Post("http://"+addr+"/echo?status=202", "text/plain", strings.NewReader("over TCP"))
	if err != nil {
		t.Fatal(err)
	}
	if r := Read(t, res); r.Status != 202 || r.Body != "POST text/plain over TCP" {
		t.Errorf("over TCP: %d %q", r.Status, r.Body)
	}
}
