package main

import (
	"archive/tar"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/backups"
)

// serve writes backup archives on its schedule and keeps backup.keep of
// them; `fleetd restore ARCHIVE` in a fresh directory brings back the
// store and the uploaded files, and serve there has the same data.
func TestScheduledBackupRestores(t *testing.T) {
	// A backup refuses to start below data.lowFreeSpace (1 GiB): on a
	// machine with less free the test would test the disk, not the schedule.
	t.Setenv("FLEETD_DATA_LOWFREESPACE", "1")
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nbackup: {schedule: 1s, keep: 2}\n"+anyPorts)
	s := e.serve(t)
	core := s.server.Core
	if _, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = "Truck 7", "123456789012345"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	content := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("insurance "), 1000)...)
	file, err := core.Office.UploadFile(model.System(), "insurance.pdf", "application/pdf", int64(len(content)), bytes.NewReader(content))
	if err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(e.dir, "backups")
	for deadline := time.Now().Add(30 * time.Second); strings.Count(s.log.String(), "scheduled backup written") < 3; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no three scheduled backups after 30 s:\n%s", s.log)
		}
	}
	archives := backups.Archives(dir)
	if len(archives) != 2 {
		t.Fatalf("archives kept: %v, want backup.keep = 2", archives)
	}

	res, err := http.Get("http://" + s.server.WebAddr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(metrics), "\nfleetd_backup_last_failed 0\n") ||
		strings.Contains(string(metrics), "\nfleetd_backup_last_success_timestamp_seconds 0\n") {
		t.Errorf("backup metrics missing or wrong:\n%s", metrics)
	}

	fresh := newEnv(t, "web: {address: '127.0.0.1:0'}\n"+anyPorts)
	archive := archives[len(archives)-1]
	fresh.run("", "restore", archive).expect(t, "restore of an archive", 0, "restored "+archive, "restored the uploaded files")
	restored := fresh.serve(t).server.Core
	devices, err := restored.Fleet.Devices.List(model.System(), model.Query{All: true})
	if err != nil || len(devices) != 1 || devices[0].UniqueID != "123456789012345" {
		t.Fatalf("restored devices %v (%v)", devices, err)
	}
	f, r, err := restored.Office.OpenFile(model.System(), int64(file.ID))
	if err != nil {
		t.Fatalf("restored file: %v", err)
	}
	defer r.Close()
	got, _ := io.ReadAll(r)
	if f.Name != "insurance.pdf" || !bytes.Equal(got, content) {
		t.Fatalf("restored file %q with %d bytes, want insurance.pdf with %d", f.Name, len(got), len(content))
	}
}

// An archive that holds anything but the store and plain file names is
// refused before anything is replaced.
func TestRestoreRefusesStrangeArchives(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\n"+anyPorts)
	e.run("", "user", "add", "--email", "a@example.com", "--password", "pw").expect(t, "add", 0)
	before := e.storeBytes()
	for name, entry := range map[string]string{"escape": "files/../../etc/cron.d/x", "no store": "files/a"} {
		path := filepath.Join(t.TempDir(), name+".tar")
		writeTar(t, path, entry)
		e.run("", "restore", path).expect(t, "restore of "+name, 1)
		if !bytes.Equal(e.storeBytes(), before) {
			t.Fatalf("%s: the store changed", name)
		}
	}
}

func writeTar(t *testing.T, path, entry string) {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	if err := tw.WriteHeader(&tar.Header{Name: entry, Mode: 0o600, Size: 1, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte("x"))
	tw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}
