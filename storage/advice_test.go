package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAdvise(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fleetd.db")
	other := errors.New("disk on fire")
	for _, tc := range []struct {
		err  error
		want []string
	}{
		{ErrLocked, []string{"in use by a running fleetd serve", "fleetd backup FILE"}},
		{fmt.Errorf("open: %w", fs.ErrNotExist), []string{"no store at " + path, `(data.dir "` + dir + `")`}},
		{ErrDamaged, []string{"the store file is damaged", "fleetd restore FILE", "fleetd keeps no copy of it in " + dir}},
		{ErrNewerSchema, []string{"newer fleetd", "run the newer fleetd"}},
		{other, []string{"disk on fire"}},
	} {
		got := Advise(tc.err, path, dir)
		if tc.err == ErrLocked && strings.Contains(got.Error(), ErrLocked.Error()) {
			t.Errorf("Advise(%v) = %q repeats the error it replaces", tc.err, got)
		}
		for _, want := range tc.want {
			if !strings.Contains(got.Error(), want) {
				t.Errorf("Advise(%v) = %q, want it to say %q", tc.err, got, want)
			}
		}
		if !errors.Is(got, tc.err) {
			t.Errorf("Advise(%v) lost the error", tc.err)
		}
	}
	kept := path + ".before-restore-20260101T000000Z"
	if err := os.WriteFile(kept, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := Advise(ErrDamaged, path, dir); !strings.Contains(got.Error(), "copies fleetd kept: "+kept) {
		t.Errorf("with a safety copy: %q", got)
	}
}
