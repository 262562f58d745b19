package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/backups"
)

// Backup writes a verified copy of the store to dst, read from the store
// or, while serve holds it, from serve through the control socket.
func (a *Commands) Backup(ctx context.Context, dst string) error {
	path := a.Config.Data.StorePath()
	from := "store " + path
	source := func(w io.Writer) (int64, error) { return a.remote().Backup(ctx, w) }
	db, err := storage.Open(path, storage.Options{Timeout: lockTimeout, ReadOnly: true})
	switch {
	case err == nil:
		defer db.Close()
		source = db.Backup
	case errors.Is(err, storage.ErrLocked):
		from = "running fleetd serve"
	default:
		return storage.Advise(err, path, a.Config.Data.Dir)
	}
	n, schema, err := backups.WriteVerified(dst, source)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(a.Out, "backup %s: %d bytes, schema %d, from the %s\n", dst, n, schema, from)
	return nil
}

// Restore replaces the store with the backup src, a bare store or an
// archive with the uploaded files; serve must be stopped.
func (a *Commands) Restore(src string) error {
	dst, files := a.Config.Data.StorePath(), a.Config.Data.FilesDir()
	r, err := backups.Restore(src, dst, files, time.Now())
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("refusing to restore: %s is in use by a running fleetd serve; stop it first", dst)
	}
	if r.Store {
		fmt.Fprintf(a.Out, "restored %s into %s (schema %d)\n", src, dst, r.Schema)
	}
	if r.Kept != "" {
		fmt.Fprintf(a.Out, "the replaced store is kept as %s: it holds what was added after the backup; delete it once the restored store is confirmed\n", r.Kept)
	}
	if r.Files {
		fmt.Fprintf(a.Out, "restored the uploaded files into %s\n", files)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// Rollback is Restore from the copy the last schema migration took: an
// upgrade undone. What was stored since is in the replaced store, which
// Restore keeps.
func (a *Commands) Rollback() error {
	last, err := storage.LatestPreMigrationCopy(a.Config.Data.StorePath())
	if err != nil {
		return fmt.Errorf("rollback: %w: this fleetd has migrated no store here, so there is nothing to roll back", err)
	}
	if err := a.Restore(last.Path); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "this was the store before the upgrade to schema %d: start the fleetd you ran before it; this one would migrate the store again\n", last.To)
	return nil
}
