package webtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Response is what a test sees of one answer.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Decode unmarshals the body into v; a body that is not JSON fails the test.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("response is not JSON (%v): %s", err, r.Body)
	}
}

// Cookie is the cookie name the answer sets (the last one, as a browser
// keeps it), or nil when it sets none.
func (r *Response) Cookie(name string) *http.Cookie {
	var found *http.Cookie
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			found = c
		}
	}
	return found
}

// Check fails t unless r has status (fatally: the other checks would only
// add noise), its body holds every fragment of want and none of absent,
// and an error answer (400 and up) is JSON with a message, as the JSON APIs
// promise. request names the call in the messages.
//
// The fragments are looked for in the body as a client reads it: Go's
// encoder writes &, < and > in strings as \u0026, \u003c and \u003e, and
// a fragment absent must be absent in either spelling.
func (r *Response) Check(t testing.TB, request string, status int, want, absent []string) {
	t.Helper()
	r.check(t, request, status, want, absent, true)
}

// check is Check; jsonErrors false lets an error answer be a page.
func (r *Response) check(t testing.TB, request string, status int, want, absent []string, jsonErrors bool) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", request, r.Status, status, r.Body)
	}
	text := r.Text()
	Contains(t, "body "+r.Body, text, want...)
	for _, f := range absent {
		if strings.Contains(r.Body, f) || strings.Contains(text, f) {
			t.Errorf("body %s has %q", r.Body, f)
		}
	}
	if jsonErrors && r.Status >= 400 {
		var body struct{ Message string }
		if r.Decode(t, &body); body.Message == "" {
			t.Errorf("error body without message: %s", r.Body)
		}
	}
}

// unescape undoes the escapes Go's JSON encoder adds for HTML.
var unescape = strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">")

// Text is the body as a client reads it: Go's JSON escapes of &, < and >
// undone.
func (r *Response) Text() string { return unescape.Replace(r.Body) }

// Contains fails t for each fragment body lacks; what names the body.
func Contains(t testing.TB, what, body string, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if !strings.Contains(body, f) {
			t.Errorf("%s lacks %q", what, f)
		}
	}
}

// Lacks fails t for each fragment body has; what names the body.
func Lacks(t testing.TB, what, body string, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if strings.Contains(body, f) {
			t.Errorf("%s has %q", what, f)
		}
	}
}
