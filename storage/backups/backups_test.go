package backups

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// Run writes an archive named by its time, keeps Keep of them, and is due
// again Every after the newest; a backup that would eat into the reserve
// of free space is not started and leaves the archives as they were.
func TestSchedule(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := t.TempDir()
	free := int64(1 << 40)
	s := &Schedule{DB: db, FilesDir: t.TempDir(), Dir: dir, Every: time.Hour, Keep: 2, Reserve: 1 << 20,
		Room: func() (int64, error) { return free, nil }}
	t0 := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	if d := s.Due(t0); d != 0 {
		t.Fatalf("due in %s with no archive, want now", d)
	}
	for i := range 3 {
		if r := s.Run(t0.Add(time.Duration(i) * time.Hour)); r.Err != nil || r.Size == 0 {
			t.Fatalf("backup %d: %+v", i, r)
		}
	}
	want := []string{filepath.Join(dir, "fleetd-20261124T040000Z.tar"), filepath.Join(dir, "fleetd-20261124T050000Z.tar")}
	if got := Archives(dir); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("archives %v, want %v", got, want)
	}
	if d := s.Due(t0.Add(2*time.Hour + 20*time.Minute)); d != 40*time.Minute {
		t.Errorf("due in %s, want 40m", d)
	}
	if !IsArchive(want[1]) {
		t.Error("an archive is not recognised as one")
	}

	free = 1 << 20 // the reserve alone
	r := s.Run(t0.Add(3 * time.Hour))
	if r.Err == nil || !strings.Contains(r.Err.Error(), "not started") {
		t.Fatalf("backup without room: %v", r.Err)
	}
	if got := Archives(dir); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("a refused backup changed the archives: %v", got)
	}
	if r.Path != "" || r.Size != 0 {
		t.Errorf("a refused backup reported an archive: %+v", r)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries in the backup directory, want the 2 archives", len(entries))
	}
}

// Growth is the size difference of the oldest and newest archive kept, a
// day's worth; it needs two archives an hour apart.
func TestGrowth(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]int
		want  float64
		ok    bool
	}{
		{"none", nil, 0, false},
		{"one", map[string]int{"fleetd-20261124T000000Z.tar": 1000}, 0, false},
		{"two days", map[string]int{"fleetd-20261124T000000Z.tar": 1000, "fleetd-20261125T000000Z.tar": 1500,
			"fleetd-20261126T000000Z.tar": 3000, "notes.txt": 99999}, 1000, true},
		{"minutes apart", map[string]int{"fleetd-20261124T000000Z.tar": 1000, "fleetd-20261124T000500Z.tar": 2000}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, size := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got, ok := Growth(dir); got != tc.want || ok != tc.ok {
				t.Errorf("Growth = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// The job takes the first backup a minute after start when none is
// recent, later when the newest archive is younger than Every, and notes
// every outcome, a refused backup too.
func TestScheduleJob(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	free := int64(1 << 40)
	s := &Schedule{DB: db, FilesDir: t.TempDir(), Dir: t.TempDir(), Every: time.Hour, Keep: 2, Reserve: 1 << 20,
		Room: func() (int64, error) { return free, nil }}
	var notes []model.BackupReport
	note := func(r model.BackupReport) { notes = append(notes, r) }
	var log bytes.Buffer
	j := s.Job(note, slog.New(slog.NewTextHandler(&log, nil)))
	if j.First != time.Minute || j.Every != time.Hour {
		t.Fatalf("with no archive: first run after %s, then every %s; want 1m, 1h", j.First, j.Every)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || notes[0].Path == "" || notes[0].Size == 0 || notes[0].Err != "" ||
		!strings.Contains(log.String(), "scheduled backup written") {
		t.Fatalf("noted %+v, logged %q", notes, log.String())
	}
	if first := s.Job(note, slog.New(slog.DiscardHandler)).First; first <= 59*time.Minute {
		t.Errorf("with an archive just taken: first run after %s, want about an hour", first)
	}
	free = 0
	if err := j.Run(context.Background()); err == nil || len(notes) != 2 || notes[1].Err != err.Error() || notes[1].Path != "" {
		t.Errorf("a refused backup: %v, noted %+v", err, notes)
	}
}

// Without Room, the room is the free space of the backup directory's file
// system.
func TestScheduleRoomOfTheDisk(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := &Schedule{DB: db, FilesDir: t.TempDir(), Dir: t.TempDir(), Every: time.Hour, Keep: 1}
	if r := s.Run(time.Now()); r.Err != nil {
		t.Fatalf("with the disk's room: %v", r.Err)
	}
	s.Reserve = 1 << 62 // more than any disk has
	if r := s.Run(time.Now().Add(time.Hour)); r.Err == nil || !strings.Contains(r.Err.Error(), "not started") {
		t.Errorf("a reserve past the disk's room: %v", r.Err)
	}
}
