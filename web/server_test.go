package web_test

import (
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
)

func TestStartPage(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := web.New(app.New(db, app.Options{}), web.Options{})
	res, err := f.Test(httptest.NewRequest("GET", "/", nil))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(body), `href="/api/openapi.json"`) {
		t.Fatalf("GET / = %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}
