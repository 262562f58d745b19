package webtest

import (
	"slices"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// Env is a scenario's world as its hooks see it: a package's fixture type
// embedding *World (or *World itself).
type Env interface{ world() *World }

// Scenario is one request against a fresh world and what must come of it,
// after PocketBase's tests.ApiScenario: the request (method, path, body,
// caller, headers), the answer's status and JSON fragments present and
// absent, and hooks to prepare the world and to check it afterwards.
type Scenario[E Env] struct {
	Name string

	// As is the caller: a fixture user's name, "" anonymous. It signs in
	// by Auth, by default the world's way.
	As   string
	Auth Auth
	// Header holds more request headers: "Host" sets the request's host,
	// an empty value removes the header (a body without Content-Type).
	Header map[string]string

	Method string
	Path   string // {name} expands to a fixture id or value
	Body   string // {name} expands too
	// ContentType is the body's; "" is JSON when there is a body.
	ContentType string

	Status int
	Want   []string // fragments the body must hold ({name} expands)
	Absent []string // fragments it must not hold, besides the world's Never
	// Unchanged: the world's Snapshot (by default the whole store) is the
	// same after the request as before it.
	Unchanged bool

	// World builds this scenario's world instead of the runner's builder,
	// for a scenario that needs other options.
	World func(t testing.TB) E
	// Before runs on the fresh world before the request and may change it.
	Before func(t *testing.T, e E)
	// After runs once the answer has been checked, to look at the store,
	// the core or the answer further.
	After func(t *testing.T, e E, r *Response)
}

// Run runs each scenario as a subtest named after it, each on a fresh
// world from world (or the scenario's own builder).
func Run[E Env](t *testing.T, world func(t testing.TB) E, scenarios []Scenario[E]) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) { s.Test(t, world) })
	}
}

// Runner is Run with world bound: a package's runner for its fixture.
func Runner[E Env](world func(t testing.TB) E) func(t *testing.T, scenarios []Scenario[E]) {
	return func(t *testing.T, scenarios []Scenario[E]) {
		t.Helper()
		Run(t, world, scenarios)
	}
}

// Test runs the scenario as t: it builds the world, runs Before, signs the
// caller in, sends the request and checks the answer, then runs After.
func (s Scenario[E]) Test(t *testing.T, world func(t testing.TB) E) {
	t.Helper()
	if s.World != nil {
		world = s.World
	}
	e := world(t)
	if s.Before != nil {
		s.Before(t, e)
	}
	r := s.send(t, e.world())
	if s.After != nil {
		s.After(t, e, r)
	}
}

// send sends the scenario's request in w and checks the answer.
func (s Scenario[E]) send(t testing.TB, w *World) *Response {
	t.Helper()
	contentType := s.ContentType
	if contentType == "" && s.Body != "" {
		contentType = fiber.MIMEApplicationJSON
	}
	req := w.Request(t, s.Method, s.Path, contentType, s.Body)
	for k, v := range s.Header {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	w.Sign(t, req, s.As, s.Auth) // before the snapshot: a login writes a session
	var before string
	if s.Unchanged {
		before = w.snapshot(t)
	}
	r := Do(t, w.App, req)
	r.check(t, s.Method+" "+s.Path, s.Status, w.expandAll(t, s.Want), w.expandAll(t, slices.Concat(s.Absent, w.Never)), !w.Pages)
	if s.Unchanged {
		if after := w.snapshot(t); after != before {
			if w.Snapshot == nil {
				t.Error("the request changed the store")
			} else {
				t.Errorf("the request changed the world:\nbefore %s\nafter  %s", before, after)
			}
		}
	}
	return r
}
