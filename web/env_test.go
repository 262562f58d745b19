package web_test

import (
	"bytes"
	"log/slog"
	"mime/multipart"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"golang.org/x/crypto/bcrypt"
)

const (
	adminEmail    = "admin@example.com"
	adminPassword = "admin-secret"
)

// fleetHost is the server's name in these tests' requests.
const fleetHost = "fleet.example.com"

// appEnv is a Fiber app on a real store with an administrator, for
// requests through app.Test: the scenarios' world (webtest.World) to
// fleetHost, where "admin" signs in by a session made through the core.
type appEnv struct{ *webtest.World }

// newAppEnv builds the world, serving with opts (a discarding logger
// unless they have one) a core whose options with adjusts.
func newAppEnv(t testing.TB, opts web.Options, with ...func(*app.Options)) *appEnv {
	t.Helper()
	o := app.Options{BcryptCost: bcrypt.MinCost, Office: office.Options{FilesDir: filepath.Join(t.TempDir(), "files")}}
	for _, w := range with {
		w(&o)
	}
	db := webtest.OpenStore(t)
	core := app.New(db, o)
	admin, _, err := core.Accounts.Bootstrap(adminEmail, adminPassword)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	e := &appEnv{webtest.NewWorld(db, core, web.New(core, opts))}
	e.IDs["admin"] = admin.ID
	e.Users["admin"] = webtest.Credentials{Email: adminEmail, Password: adminPassword}
	e.Auth, e.Host = webtest.AuthSession, fleetHost
	return e
}

// appWorld builds the world serving with opts, for a scenario.
func appWorld(opts web.Options) func(testing.TB) *appEnv {
	return func(t testing.TB) *appEnv { return newAppEnv(t, opts) }
}

// admin is the administrator as the core has it.
func (e *appEnv) admin(t testing.TB) *model.User {
	t.Helper()
	u, err := e.Core.Accounts.User(model.System(), e.IDs["admin"])
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// auth says how a request authenticates.
type auth int

const (
	anonymous auth = iota
	cookie
	basic
)

// sign makes s the request of the caller a says.
func (a auth) sign(s *webtest.Scenario[*appEnv]) {
	switch a {
	case cookie:
		s.As, s.Auth = "admin", webtest.AuthSession
	case basic:
		s.As, s.Auth = "admin", webtest.AuthBasic
	}
}

const newDevice = `{"name":"Truck","uniqueId":"1"}`

// multipartBody is a form with one PDF of size bytes in the field "file".
func multipartBody(t *testing.T, size int) (body []byte, contentType string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("file", "scan.pdf")
	if err != nil {
		t.Fatal(err)
	}
	part.Write(append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), size)...))
	w.Close()
	return b.Bytes(), w.FormDataContentType()
}
