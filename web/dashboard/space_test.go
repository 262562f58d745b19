package dashboard_test

import (
	"errors"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// diskOf reports free bytes of a 100 GiB disk; a negative value fails statfs.
func diskOf(free *atomic.Int64) func(*app.Options) {
	return func(o *app.Options) {
		o.Space.Statfs = func() (uint64, uint64, error) {
			if n := free.Load(); n >= 0 {
				return uint64(n), 100 << 30, nil
			}
			return 0, 0, errors.New("statfs failed")
		}
	}
}

// Every page warns administrators while the data disk's free space is
// under the threshold (default 1 GiB); nobody else, and nothing when it
// cannot be read.
func TestLowDiskWarning(t *testing.T) {
	var free atomic.Int64
	disk := func(n int64) func(*testing.T, *env) { return func(*testing.T, *env) { free.Store(n) } }
	const banner = `id="disk-low"`
	low := []string{banner, "800.0 MB of 100.0 GB free", "retention.positions"}
	webtest.Run(t, func(t testing.TB) *env { return newEnv(t, diskOf(&free)) }, []scenario{
		{Name: "administrator, low", Before: disk(800 << 20), As: "admin", Method: "GET", Path: "/dashboard/", Status: 200, Want: low},
		{Name: "on every page", Before: disk(800 << 20), As: "admin", Method: "GET", Path: "/dashboard/tickets", Status: 200, Want: low},
		{Name: "manager, low", Before: disk(800 << 20), As: "manager", Method: "GET", Path: "/dashboard/", Status: 200, Absent: []string{banner}},
		{Name: "administrator, at the threshold", Before: disk(1 << 30), As: "admin", Method: "GET", Path: "/dashboard/", Status: 200,
			Absent: []string{banner}},
		{Name: "administrator, plenty", Before: disk(50 << 30), As: "admin", Method: "GET", Path: "/dashboard/", Status: 200,
			Absent: []string{banner}},
		{Name: "administrator, unreadable", Before: disk(-1), As: "admin", Method: "GET", Path: "/dashboard/", Status: 200,
			Absent: []string{banner}},
		// The threshold is the core's option (data.lowFreeSpace).
		{Name: "under a lower threshold", Before: disk(800 << 20), As: "admin", Method: "GET", Path: "/dashboard/", Status: 200,
			Absent: []string{banner}, World: func(t testing.TB) *env {
				return newEnv(t, diskOf(&free), func(o *app.Options) { o.Space.Low = 100 << 20 })
			}},
	})
}

// A form whose files the disk has no room for comes back with what was
// typed and the reason, answered 507, and stores nothing.
func TestUploadOnAFullDisk(t *testing.T) {
	var free atomic.Int64
	free.Store(10)
	e := newEnv(t, diskOf(&free))
	admin := e.as("admin")
	res := admin.postMultipart("/dashboard/documents", url.Values{"entity": {"vehicle:" + itoa(e.devices["truck1"].ID)},
		"documentType": {"Permit"}}, map[string]map[string]string{"files": {"permit.pdf": pdf}})
	if res.Status != 507 {
		t.Fatalf("status %d: %.400s", res.Status, res.Body)
	}
	webtest.Contains(t, "refused form", res.Body, `class="alert"`, `value="Permit"`, "no room for")
	if docs, _, err := e.Core.Office.Documents(e.users["admin"], model.Query{}); err != nil || len(docs) != 0 {
		t.Errorf("documents %d, %v; want none", len(docs), err)
	}
}

// An administrator sees on every page that the last scheduled backup
// failed, why, and which one is the last good one; a manager does not.
func TestBackupFailedWarning(t *testing.T) {
	e := newEnv(t)
	admin, manager := e.as("admin"), e.as("manager")
	const banner = `id="backup-failed"`
	webtest.Lacks(t, "before any backup", admin.get("/dashboard/").Body, banner)
	at := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	e.Core.Ops.NoteBackup(model.BackupReport{At: at, Path: "/var/lib/fleetd/backups/fleetd-20261124T030000Z.tar", Size: 1 << 20})
	webtest.Lacks(t, "after a good backup", admin.get("/dashboard/").Body, banner)
	e.Core.Ops.NoteBackup(model.BackupReport{At: at.Add(24 * time.Hour), Err: "no space left on device"})
	for _, path := range []string{"/dashboard/", "/dashboard/tickets"} {
		webtest.Contains(t, path, admin.get(path).Body, banner, "2026-11-25 03:00 UTC", "no space left on device",
			"fleetd-20261124T030000Z.tar")
	}
	webtest.Lacks(t, "manager", manager.get("/dashboard/").Body, banner)
}

// The overview shows administrators the data disk at a glance: free space,
// growth and the date it is full, and the last backup.
func TestOverviewDataDisk(t *testing.T) {
	var free atomic.Int64
	free.Store(10 << 30)
	e := newEnv(t, diskOf(&free), func(o *app.Options) {
		o.Space.StoreSize = func() (int64, error) { return 250 << 20, nil }
	})
	const card = `id="data-disk"`
	webtest.Contains(t, "before any backup", e.as("admin").get("/dashboard/").Body, card, "10.0 GB free of 100.0 GB",
		"The store takes 250.0 MB", "No scheduled backup since the server started")
	at := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	e.Core.Ops.NoteBackup(model.BackupReport{At: at, Path: "/b/fleetd-20261124T030000Z.tar", Size: 3 << 20, GrowthPerDay: 1 << 30})
	webtest.Contains(t, "after a backup", e.as("admin").get("/dashboard/").Body, card, "grows by 1.0 GB a day",
		"Last backup: 2026-11-24 03:00 UTC, 3.0 MB")
	webtest.Lacks(t, "manager", e.as("manager").get("/dashboard/").Body, card)
}
