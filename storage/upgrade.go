package storage

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

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
		return WriteAtomic(up.Backup, func(w io.Writer) error {
			_, err := tx.WriteTo(w)
			return err
		})
	})
	if err != nil {
		return Upgrade{}, fmt.Errorf("backup before migrating schema %d to %d: %w", up.From, up.To, err)
	}
	// The last two copies are kept: the way back over the last two
	// upgrades. Older ones only take room.
	copies := PreMigrationBackups(path)
	for _, old := range copies[:max(0, len(copies)-2)] {
		os.Remove(old.Path)
	}
	return up, nil
}

// PreMigrationCopy is a copy Open took before a migration: the store as
// the previous fleetd left it, at schema To-1 or earlier.
type PreMigrationCopy struct {
	Path string
	To   int // the schema the store was migrated to after the copy
}

// PreMigrationBackups lists the pre-migration copies of the store at
// path, oldest first.
func PreMigrationBackups(path string) []PreMigrationCopy {
	matches, _ := filepath.Glob(globEscape(path) + ".pre-v*.bak")
	var out []PreMigrationCopy
	for _, m := range matches {
		v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(m, path+".pre-v"), ".bak"))
		if err == nil {
			out = append(out, PreMigrationCopy{Path: m, To: v})
		}
	}
	slices.SortFunc(out, func(a, b PreMigrationCopy) int { return cmp.Compare(a.To, b.To) })
	return out
}

// ErrNoPreMigrationCopy is returned by LatestPreMigrationCopy when no
// migration has left a copy.
var ErrNoPreMigrationCopy = errors.New("no copy taken before a schema migration")

// LatestPreMigrationCopy is the copy taken before the last migration.
func LatestPreMigrationCopy(path string) (PreMigrationCopy, error) {
	copies := PreMigrationBackups(path)
	if len(copies) == 0 {
		return PreMigrationCopy{}, fmt.Errorf("%w next to %s", ErrNoPreMigrationCopy, path)
	}
	return copies[len(copies)-1], nil
}

// globEscape quotes the pattern characters of a literal path.
func globEscape(path string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(path)
}
