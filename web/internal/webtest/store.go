package webtest

import (
	"bytes"
	"testing"

	"github.com/fleetd/fleetd/storage"
)

// StoreImage is the whole store as a backup writes it. Only a commit
// changes it, so two equal images prove a request wrote nothing.
func StoreImage(t testing.TB, db *storage.DB) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := db.Backup(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
