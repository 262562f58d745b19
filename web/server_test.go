package web_test

import (
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
)

// The dashboard takes "/" over: a browser opening the server lands on it.
func TestRootRedirectsToDashboard(t *testing.T) {
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
	if res.StatusCode != 302 || res.Header.Get("Location") != "/dashboard/" {
		t.Fatalf("GET / = %d Location %q", res.StatusCode, res.Header.Get("Location"))
	}
}
