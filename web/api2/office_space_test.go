package api2_test

import (
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// fullStore is the fixture's store whose writes fail with errno, as the
// file system answers when the disk (ENOSPC) or the quota (EDQUOT) is full.
type fullStore struct {
	model.Store
	errno atomic.Value // syscall.Errno; unset: writes go through
}

// As keeps the writes of every actor on the full disk.
func (s *fullStore) As(*model.User) model.Store { return s }

func (s *fullStore) Update(fn func(model.Tx) error) error {
	if errno, ok := s.errno.Load().(syscall.Errno); ok {
		return &fs.PathError{Op: "write", Path: "fleetd.db", Err: errno}
	}
	return s.Store.Update(fn)
}

// An upload the disk has no room for answers 507 with the usual error
// body and leaves nothing behind: refused at once when the free space is
// under the declared size, and when the write itself runs out of room.
func TestFileUploadOnAFullDisk(t *testing.T) {
	const plenty = 1 << 30
	for _, c := range []struct {
		name   string
		free   int64         // -1: statfs fails
		errno  syscall.Errno // the store's writes fail with it
		status int
		want   string
	}{
		{name: "room enough", free: plenty, status: 201},
		{name: "less free than the file", free: int64(len(pdf)) - 1, status: 507,
			want: `{"message":"Insufficient storage","description":"The server's disk has no room for 18 bytes`},
		{name: "the disk fills while storing", free: plenty, errno: syscall.ENOSPC, status: 507,
			want: `{"message":"Insufficient storage","description":"The server's disk is full`},
		{name: "the quota is used up", free: plenty, errno: syscall.EDQUOT, status: 507, want: "Insufficient storage"},
		{name: "free space unknown, the disk full", free: -1, errno: syscall.ENOSPC, status: 507, want: "Insufficient storage"},
		{name: "another write error stays internal", free: plenty, errno: syscall.EIO, status: 500, want: "Internal server error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var store *fullStore
			e := buildOfficeEnv(t, func(db *storage.DB) model.Store { store = &fullStore{Store: db}; return store },
				func(o *app.Options) {
					o.Space.Statfs = func() (uint64, uint64, error) {
						if c.free < 0 {
							return 0, 0, errors.New("statfs failed")
						}
						return uint64(c.free), 100 << 30, nil
					}
				})
			e.Cookie(t, "alice") // signs in while the store still writes
			if c.errno != 0 {
				store.errno.Store(c.errno)
			}
			before := e.snapshot()
			r := e.upload("alice", "scan.pdf", "application/pdf", pdf)
			if r.Status != c.status || !strings.Contains(r.Body, c.want) {
				t.Fatalf("status %d body %s; want %d with %s", r.Status, r.Body, c.status, c.want)
			}
			if after := e.snapshot(); c.status != 201 && after != before {
				t.Fatalf("a refused upload left something:\n%s", after)
			}
		})
	}
}
