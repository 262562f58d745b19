package admin

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/storage"
	"golang.org/x/crypto/bcrypt"
)

// commands work on a fresh data directory; in is what a password prompt
// reads.
func commands(t *testing.T, in string) (*Commands, *bytes.Buffer) {
	t.Helper()
	cfg := config.NewRegistry(config.DeviceDefaults{}).Default()
	cfg.Data.Dir = filepath.Join(t.TempDir(), "data")
	var out bytes.Buffer
	return &Commands{Config: cfg, In: strings.NewReader(in), Out: &out, NewCore: func(db *storage.DB) *app.Core {
		return app.New(db, app.Options{BcryptCost: bcrypt.MinCost})
	}}, &out
}

func TestUsers(t *testing.T) {
	a, out := commands(t, "from-stdin\n")
	if err := a.SetPassword("a@example.com", "x"); err == nil || !strings.Contains(err.Error(), "no store at") {
		t.Fatalf("passwd without a store: %v", err)
	}
	if err := a.AddUser("a@example.com", "Alice", "", false); err != nil {
		t.Fatal(err)
	}
	if err := a.AddUser("b@example.com", "", "pw", false); err != nil {
		t.Fatal(err)
	}
	if err := a.SetPassword("nobody@example.com", "x"); err == nil || !strings.Contains(err.Error(), `no user with e-mail "nobody@example.com"`) {
		t.Errorf("passwd of nobody: %v", err)
	}
	if err := a.AddUser("c@example.com", "", "", false); err == nil || !strings.Contains(err.Error(), "no password") {
		t.Errorf("add with stdin used up: %v", err)
	}
	out.Reset()
	if err := a.ListUsers(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || strings.Join(strings.Fields(lines[1]), " ") != "1 a@example.com Alice true false" {
		t.Errorf("list:\n%s", out)
	}
}

// Maintenance mode is switched in the stopped server's store; backup and
// restore go through the store too, and rollback finds nothing to undo.
func TestStoreCommands(t *testing.T) {
	a, out := commands(t, "")
	ctx := context.Background()
	if err := a.Maintenance(ctx, "status"); err == nil || !strings.Contains(err.Error(), "no store at") {
		t.Fatalf("status without a store: %v", err)
	}
	if err := a.AddUser("a@example.com", "", "pw", true); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ action, want string }{
		{"on", "maintenance mode on (store "}, {"status", "maintenance mode on (store "}, {"off", "maintenance mode off (store "},
	} {
		out.Reset()
		if err := a.Maintenance(ctx, step.action); err != nil || !strings.HasPrefix(out.String(), step.want) {
			t.Errorf("%s: %q, %v", step.action, out, err)
		}
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	out.Reset()
	if err := a.Backup(ctx, backup); err != nil || !strings.Contains(out.String(), "from the store "+a.Config.Data.StorePath()) {
		t.Fatalf("backup: %q, %v", out, err)
	}
	out.Reset()
	if err := a.Restore(backup); err != nil || !strings.Contains(out.String(), "the replaced store is kept as") {
		t.Errorf("restore: %q, %v", out, err)
	}
	if err := a.Rollback(); err == nil || !strings.Contains(err.Error(), "nothing to roll back") {
		t.Errorf("rollback: %v", err)
	}
}
