package storage

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrDamaged is returned for a store file that bbolt cannot open safely:
// bbolt maps the file and reads the pages its header promises, so a file
// cut short (an interrupted copy, a full disk) would crash the process
// with a fault instead of failing.
var ErrDamaged = errors.New("the store file is damaged")

// A bbolt file starts with two meta pages (page 0 and page 1); each is a
// 16-byte page header followed by the meta fields, written in the
// machine's byte order (little-endian on every platform fleetd ships for).
// The valid meta with the larger transaction id is the current one.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltPageHeader = 16
	boltMetaLen    = 64 // magic, version, pageSize, flags, root bucket (16), freelist, pgid, txid, checksum
	boltSumLen     = 56 // the checksum (FNV-64a) covers the fields before it
	// bbolt looks for the second meta page at 1 KiB up to 16 MiB.
	minPageSize, maxPageSize = 1 << 10, 1 << 24
)

// boltMeta is what CheckFile needs of a meta page.
type boltMeta struct {
	pageSize int64
	pages    uint64 // pgid: the high water mark, the pages in use
	txid     uint64
}

// CheckFile checks the store file at path before bbolt opens it: at least
// one meta page must be valid (magic, version, checksum, a sane page size)
// and the file must hold every page the current meta counts. An empty
// file passes (bbolt initialises it); a missing one fails with
// fs.ErrNotExist. Other failures match ErrDamaged.
func CheckFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	meta, err := currentMeta(f, size)
	if err != nil {
		return err
	}
	if meta.pages > uint64(math.MaxInt64/meta.pageSize) || size < int64(meta.pages)*meta.pageSize {
		return fmt.Errorf("%w: it has %d bytes but its header counts %d pages of %d bytes: the file was cut short (an interrupted copy or a full disk)",
			ErrDamaged, size, meta.pages, meta.pageSize)
	}
	return nil
}

// currentMeta returns the valid meta page with the larger transaction id.
// The second page's offset is the page size, which the first page states;
// when the first is invalid, each size bbolt allows is tried as bbolt does.
func currentMeta(f io.ReaderAt, size int64) (boltMeta, error) {
	var valid []boltMeta
	if m, ok := readMeta(f, 0); ok {
		valid = append(valid, m)
		if m1, ok := readMeta(f, m.pageSize); ok && m1.pageSize == m.pageSize {
			valid = append(valid, m1)
		}
	} else {
		for ps := int64(minPageSize); ps <= maxPageSize && ps < size; ps *= 2 {
			if m1, ok := readMeta(f, ps); ok && m1.pageSize == ps {
				valid = append(valid, m1)
				break
			}
		}
	}
	if len(valid) == 0 {
		return boltMeta{}, fmt.Errorf("%w: neither meta page is valid (not a bbolt file, or its header was overwritten)", ErrDamaged)
	}
	return slices.MaxFunc(valid, func(a, b boltMeta) int { return cmp.Compare(a.txid, b.txid) }), nil
}

// readMeta reads and validates the meta page at off.
func readMeta(f io.ReaderAt, off int64) (boltMeta, bool) {
	var buf [boltPageHeader + boltMetaLen]byte
	if _, err := f.ReadAt(buf[:], off); err != nil {
		return boltMeta{}, false
	}
	m := buf[boltPageHeader:]
	le := binary.LittleEndian
	h := fnv.New64a()
	h.Write(m[:boltSumLen])
	pageSize := int64(le.Uint32(m[8:]))
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || le.Uint64(m[boltSumLen:]) != h.Sum64() ||
		pageSize < minPageSize || pageSize > maxPageSize || pageSize&(pageSize-1) != 0 {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: pageSize, pages: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// SafetyCopy is where Restore keeps the store it replaces, stamped with the
// time of the restore (UTC).
func SafetyCopy(path string, at time.Time) string {
	return path + ".before-restore-" + at.UTC().Format("20060102T150405Z")
}

// SafetyCopies lists the copies of the store at path that fleetd keeps next
// to it: those Restore keeps (SafetyCopy, oldest first) and those taken
// before a schema migration (PreMigrationBackup). Each is a whole store
// that `fleetd restore` takes back.
func SafetyCopies(path string) []string {
	dir, base := filepath.Split(path)
	entries, _ := os.ReadDir(filepath.Clean(dir)) // sorted by name; none when unreadable
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, base+".before-restore-") || strings.HasPrefix(n, base+".pre-v") && strings.HasSuffix(n, ".bak") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}
