package app_test

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// What a crash leaves in the files directory goes at the next sweep,
// however young; what this run has in flight stays.
func TestSweepFiles(t *testing.T) {
	db := storagetest.Open(t)
	dir := filepath.Join(t.TempDir(), "files")
	core := app.New(db, app.Options{Office: office.Options{FilesDir: dir}})
	if n, err := core.Office.SweepFiles(); n != 0 || err != nil {
		t.Fatalf("before any upload: %d, %v", n, err)
	}
	kept, err := core.Office.UploadFile(model.System(), "a.pdf", "application/pdf", -1, strings.NewReader("%PDF-1.4"))
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := core.Office.TempDir()
	if err != nil || filepath.Dir(tmp) != dir {
		t.Fatalf("TempDir = %q, %v; want a directory in %s", tmp, err, dir)
	}
	left := map[string]bool{ // name -> removed by the sweep
		".upload-123":                 true, // an unfinished upload of an older fleetd
		".upload-0a1b2c3d4e5f-71":     true, // an unfinished upload of a crashed run
		".tmp-0a1b2c3d4e5f/":          true, // a crashed run's temporary directory
		"999":                         true, // content whose metadata never committed, or whose record was deleted
		"notes.txt":                   false,
		"0999":                        false, // not an id fleetd writes
		kept.ID.String():              false,
		filepath.Base(tmp) + "/":      false,
		filepath.Base(tmp) + "/x.bin": false, // this run's temporary file
	}
	for name := range left {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			err = os.MkdirAll(path, 0o700)
		} else if _, err = os.Stat(path); os.IsNotExist(err) {
			err = os.WriteFile(path, []byte("x"), 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, ".tmp-0a1b2c3d4e5f", "multipart-1"), []byte("x"), 0o600)

	// An upload of this run in flight, halfway through its copy.
	r, w := io.Pipe()
	uploaded := make(chan *model.File, 1)
	go func() {
		f, err := core.Office.UploadFile(model.System(), "b.pdf", "application/pdf", -1, r)
		if err != nil {
			t.Errorf("the upload in flight failed: %v", err)
		}
		uploaded <- f
	}()
	w.Write([]byte("%PDF-1.4 " + strings.Repeat("first half ", 100))) // past the type sniffing
	for !slices.ContainsFunc(names(t, dir), func(n string) bool { return strings.HasPrefix(n, ".upload-") && !left[n] }) {
		time.Sleep(time.Millisecond)
	}

	n, err := core.Office.SweepFiles()
	if err != nil || n != 4 {
		t.Errorf("swept %d, %v; want 4", n, err)
	}
	w.Write([]byte(" second half"))
	w.Close()
	f := <-uploaded
	for name, removed := range left {
		if _, err := os.Stat(filepath.Join(dir, name)); os.IsNotExist(err) != removed {
			t.Errorf("%s: removed %v, want %v", name, os.IsNotExist(err), removed)
		}
	}
	want := []string{filepath.Base(tmp), "0999", kept.ID.String(), f.ID.String(), "notes.txt"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
