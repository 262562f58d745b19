package app_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// mailbox records the messages a core sends.
type mailbox struct {
	mu   sync.Mutex
	sent []string // "to: subject: text"
}

func (m *mailbox) Send(_ context.Context, to, subject, text string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+": "+subject+": "+text)
	return nil
}

func (m *mailbox) take() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.sent
	m.sent = nil
	return out
}

// Enabled administrators get one e-mail when the data disk runs low or a
// scheduled backup fails, and another only once the condition has ended
// and begun again.
func TestAdministratorAlerts(t *testing.T) {
	db := storagetest.Open(t)
	var free atomic.Uint64
	mail := &mailbox{}
	core := app.New(db, app.Options{BcryptCost: 4, Accounts: accounts.Options{Mail: mail},
		Space: ops.Options{Low: 1 << 30, Statfs: func() (uint64, uint64, error) { return free.Load(), 100 << 30, nil }}})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "pw")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*model.User{
		{Email: "manager@example.com", Name: "M", Password: "pw", UserLimit: 5},
		{Email: "retired@example.com", Name: "R", Password: "pw", Administrator: true, Disabled: true},
	} {
		if _, err := core.Accounts.CreateUser(admin, func(v *model.User) error { *v = *u; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	watchOnce := func(f uint64) { // one check of the space watch at free space f
		free.Store(f)
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // WatchSpace checks, then returns at once
		core.Ops.WatchSpace(ctx, time.Hour)
	}
	// check: nothing sent, or one message (to the one enabled
	// administrator) holding every fragment of want.
	check := func(what string, want ...string) {
		t.Helper()
		got := mail.take()
		if len(want) == 0 {
			if len(got) != 0 {
				t.Fatalf("%s: sent %q, want nothing", what, got)
			}
			return
		}
		if len(got) != 1 {
			t.Fatalf("%s: sent %q, want one message", what, got)
		}
		for _, w := range want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s: message %q lacks %q", what, got[0], w)
			}
		}
	}
	at := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	core.Ops.NoteBackup(model.BackupReport{At: at, Path: "/b/fleetd-20261124T030000Z.tar", Size: 1})
	check("a good backup")
	core.Ops.NoteBackup(model.BackupReport{At: at.Add(24 * time.Hour), Err: "disk full"})
	check("a failed backup", "admin@example.com: fleetd: a scheduled backup failed", "disk full", "fleetd-20261124T030000Z.tar")
	core.Ops.NoteBackup(model.BackupReport{At: at.Add(48 * time.Hour), Err: "disk full"})
	check("it fails again")
	core.Ops.NoteBackup(model.BackupReport{At: at.Add(72 * time.Hour), Path: "/b/x.tar"})
	core.Ops.NoteBackup(model.BackupReport{At: at.Add(96 * time.Hour), Err: "disk full"})
	check("a failure after a success", "admin@example.com: fleetd: a scheduled backup failed")

	watchOnce(50 << 30)
	check("plenty of space")
	watchOnce(800 << 20)
	check("low space", "admin@example.com: fleetd: the data disk is nearly full", "800 MB free")
	watchOnce(700 << 20)
	check("still low")
	watchOnce(2 << 30)
	watchOnce(900 << 20)
	check("low again after room was made", "admin@example.com: fleetd: the data disk is nearly full")
}
