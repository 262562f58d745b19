package admin

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tt "github.com/fleetd/fleetd/app/traccarimport/traccartest"
	"github.com/fleetd/fleetd/storage"
)

func TestParseWhen(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, berlin)
	for _, c := range []struct {
		in   string
		end  bool
		want string // RFC 3339, or the error's start
	}{
		{"", false, "0001-01-01T00:00:00Z"},
		{"2026-01-01", false, "2026-01-01T00:00:00+01:00"},
		{"2026-11-24", true, "2026-11-25T00:00:00+01:00"}, // the day is included
		{"2026-03-02T06:30", false, "2026-03-02T06:30:00+01:00"},
		{"2026-03-02T06:30:00Z", true, "2026-03-02T06:30:00Z"},
		{"2026-03-02T06:30:00+02:00", false, "2026-03-02T06:30:00+02:00"},
		{"yesterday", false, `"yesterday" is not a date`},
		{"2026-13-01", false, `"2026-13-01" is not a date`},
	} {
		got, err := parseWhen(c.in, c.end, now)
		s := got.Format(time.RFC3339)
		if err != nil {
			s = err.Error()
		}
		if !strings.HasPrefix(s, c.want) {
			t.Errorf("parseWhen(%q, %v) = %s, want %s", c.in, c.end, s, c.want)
		}
	}
}

// importing runs the import command against a fake Traccar, the password
// on stdin as an operator would type it.
func importing(t *testing.T, fake *tt.Server, a *Commands, ctx context.Context, in TraccarImport) error {
	t.Helper()
	a.In = strings.NewReader(tt.AdminPassword + "\n")
	in.URL, in.Email = fake.URL, tt.AdminEmail
	return a.ImportTraccar(ctx, in, time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
}

func TestImportTraccar(t *testing.T) {
	fake := tt.New(tt.Fleet())
	defer fake.Close()
	a, out := commands(t, "")
	var progress bytes.Buffer
	a.Err = &progress
	in := TraccarImport{From: "2026-03-01", To: "2026-03-03", Events: true}

	// Interrupted at once: nothing but the check of the login is done.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := importing(t, fake, a, ctx, in); err == nil || !strings.Contains(err.Error(), "import interrupted; what it stored is kept") {
		t.Errorf("cancelled import: %v", err)
	}

	out.Reset()
	if err := importing(t, fake, a, context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Imported from Traccar 6.6 at " + fake.URL,
		"                      created  already there  updated  skipped\n",
		"devices                     3              0        0        0\n",
		"geofences                   2              0        0        1\n",
		"history from 2026-03-01T00:00:00Z to 2026-03-04T00:00:00Z, read for 3 devices:",
		"  positions: 171 stored, 0 already there",
		"  events: 8 stored, 0 already there",
		`  geofence 22 "Route B17": area "LINESTRING`,
		`  user 2 "dana@example.com" -> geofence 22: the geofence was not imported`,
		"fleetd user passwd --email E",
		"  dana@example.com",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"devices              [##############################] 3/3", "history              [", "] 9/9"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, progress.String())
		}
	}

	// Again: all there, and the users can be listed.
	out.Reset()
	if err := importing(t, fake, a, context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"devices                     0              3        0        0\n", "  positions: 0 stored, 0 already there"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("second summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out.String(), "random password") {
		t.Errorf("the second import set passwords:\n%s", out)
	}
	out.Reset()
	if err := a.ListUsers(); err != nil || !strings.Contains(out.String(), "dana@example.com") {
		t.Errorf("user list: %v\n%s", err, out)
	}

	// A wrong password: the error, no summary.
	out.Reset()
	a.In = strings.NewReader("wrong\n")
	in.URL, in.Email = fake.URL, tt.AdminEmail
	err := a.ImportTraccar(context.Background(), in, time.Now())
	if err == nil || !strings.Contains(err.Error(), "refused the login of admin@example.com (401 Unauthorized)") || out.Len() != 0 {
		t.Errorf("wrong password: %v\n%s", err, out)
	}
}

func TestImportTraccarRefused(t *testing.T) {
	fake := tt.New(tt.Fleet())
	defer fake.Close()
	a, _ := commands(t, "")
	for _, c := range []struct {
		in   TraccarImport
		want string
	}{
		{TraccarImport{To: "2026-03-03"}, "--to needs --from"},
		{TraccarImport{Events: true}, "--events needs --from"},
		{TraccarImport{From: "March"}, `--from: "March" is not a date`},
	} {
		if err := importing(t, fake, a, context.Background(), c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.in, err, c.want)
		}
	}

	// While serve holds the store.
	db, err := storage.Open(a.Config.Data.StorePath(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = importing(t, fake, a, context.Background(), TraccarImport{})
	if err == nil || !strings.Contains(err.Error(), "fleetd serve is running and holds the store "+a.Config.Data.StorePath()+": stop it") {
		t.Errorf("import beside serve: %v", err)
	}
}
