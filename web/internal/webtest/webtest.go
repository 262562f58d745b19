// Package webtest is the HTTP test scaffolding the web packages' tests
// share: a throw-away store, requests through a Fiber app or a real
// listener, session cookies and {name} placeholders for fixture ids.
//
// Its centre is Scenario, one request against a fresh World and what must
// come of it, run by Run (PocketBase's tests.ApiScenario is the model).
// A World is a store, the core on it, the app and the fixture's names; it
// builds requests, signs callers in (Basic, a login, a core session) and
// sends them, for scenarios and for tests that take several steps.
//
// What each suite seeds (users, devices, clocks) stays in that suite: each
// web package has its world builder, which fills a World and embeds it in
// the type its hooks receive; this package knows no fixture. It does not
// import web, so that the web packages' own internal tests may use it
// without an import cycle.
package webtest

import (
	"net"
	"testing"

	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
	"github.com/gofiber/fiber/v2"
)

// OpenStore opens a fresh store in t.TempDir() and closes it when the test
// ends. It skips fsync: the directory is thrown away with the test.
func OpenStore(t testing.TB) *storage.DB {
	t.Helper()
	return storagetest.Open(t)
}

// Serve runs f on a real listener at 127.0.0.1:0 until the test ends and
// returns its address, for what app.Test cannot show: limits fasthttp
// applies while reading a request, and connection upgrades.
func Serve(t testing.TB, f *fiber.App) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go f.Listener(ln)
	t.Cleanup(func() { f.Shutdown() })
	return ln.Addr().String()
}
