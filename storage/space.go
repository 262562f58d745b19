package storage

import (
	"os"

	"golang.org/x/sys/unix"
)

// FreeSpace reports the bytes an unprivileged process may still write on
// the file system holding dir (the blocks reserved for root left out, as
// fleetd runs as its own user) and the file system's size.
func FreeSpace(dir string) (free, total uint64, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	return st.Bavail * uint64(st.Bsize), st.Blocks * uint64(st.Bsize), nil
}

// FileSize is the size of the store file at path on disk, which bbolt
// grows ahead of the pages in use.
func FileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
