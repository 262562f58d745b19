package storage

import (
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// Upgrade describes the schema migration an Open ran; From == To when it
// ran none.
type Upgrade struct {
	From, To int
	// Backup is the copy of the file taken before migrating, empty when
	// the store was new (nothing to lose).
	Backup string
}

// Upgraded reports the migration this Open ran, for the start-up log.
func (db *DB) Upgraded() Upgrade { return db.upgraded }

// PreMigrationBackup is where Open copies a store before migrating it to
// schema version to: migrations are forward-only, so this copy is the way
// back to the previous fleetd.
func PreMigrationBackup(path string, to int) string {
	return fmt.Sprintf("%s.pre-v%d.bak", path, to)
}

// backupBeforeMigration copies a store at an older schema (one that has a
// schema, so holds data) to PreMigrationBackup before it is migrated. The
// copy is written atomically, so an interrupted start leaves no partial one.
func backupBeforeMigration(bdb *bolt.DB, path string) (Upgrade, error) {
	up := Upgrade{To: CurrentSchema}
	err := bdb.View(func(tx *bolt.Tx) (err error) {
		if up.From, err = readSchema(tx); err != nil || up.From == 0 {
			return err
		}
		up.Backup = PreMigrationBackup(path, CurrentSchema)
		return writeAtomic(up.Backup, func(w io.Writer) error {
			_, err := tx.WriteTo(w)
			return err
		})
	})
	if err != nil {
		return Upgrade{}, fmt.Errorf("backup before migrating schema %d to %d: %w", up.From, up.To, err)
	}
	return up, nil
}
