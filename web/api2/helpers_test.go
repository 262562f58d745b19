package api2_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// The package's areas have fixtures of their own (office_helpers_test.go,
// accounts_helpers_test.go); they build their worlds here.

// newWorld opens a fresh store and serves a core with opts over store(db)
// (nil: the store itself, else a wrapper of it that injects failures).
func newWorld(t testing.TB, opts app.Options, store func(*storage.DB) model.Store) *webtest.World {
	t.Helper()
	db := webtest.OpenStore(t)
	var s model.Store = db
	if store != nil {
		s = store(db)
	}
	core := app.New(s, opts)
	return webtest.NewWorld(db, core, web.New(core, web.Options{Logger: opts.Logger}))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
