package web_test

import (
	"bytes"
	"log/slog"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

const (
	adminEmail    = "admin@example.com"
	adminPassword = "admin-secret"
)

// fleetHost is the server's name in these tests' requests.
const fleetHost = "fleet.example.com"

// appEnv is a Fiber app on a real store with an administrator, for
// requests through app.Test.
type appEnv struct {
	core   *app.Core
	app    *fiber.App
	cookie *http.Cookie
}

func newAppEnv(t *testing.T, opts web.Options) *appEnv {
	t.Helper()
	core := app.New(webtest.OpenStore(t), app.Options{BcryptCost: bcrypt.MinCost,
		Office: office.Options{FilesDir: filepath.Join(t.TempDir(), "files")}})
	admin, _, err := core.Bootstrap(adminEmail, adminPassword)
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = slog.New(slog.DiscardHandler)
	return &appEnv{core: core, app: web.New(core, opts), cookie: webtest.SessionCookie(t, core, admin)}
}

// auth says how a request authenticates.
type auth int

const (
	anonymous auth = iota
	cookie
	basic
)

// request is method path with body of contentType, sent to fleetHost with
// headers and as who.
func (e *appEnv) request(t *testing.T, as auth, method, path, contentType, body string, headers map[string]string) *webtest.Response {
	t.Helper()
	req := webtest.NewRequest(method, path, contentType, body)
	req.Host = fleetHost
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		}
		req.Header.Set(k, v)
	}
	switch as {
	case cookie:
		req.AddCookie(e.cookie)
	case basic:
		req.SetBasicAuth(adminEmail, adminPassword)
	}
	return webtest.Do(t, e.app, req)
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
