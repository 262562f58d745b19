package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/traccarimport/traccartest"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage"
	bolt "go.etcd.io/bbolt"
	"golang.org/x/crypto/bcrypt"
)

// syncBuffer is a bytes.Buffer safe to write from serve's goroutines while
// the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// env is a data directory with a config file pointing at it.
type env struct {
	t      *testing.T
	dir    string
	config string
}

func newEnv(t *testing.T, extraYAML string) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, dir: filepath.Join(dir, "data"), config: filepath.Join(dir, "fleetd.yaml")}
	yaml := fmt.Sprintf("data:\n  dir: %q\n%s", e.dir, extraYAML)
	if err := os.WriteFile(e.config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs one fleetd command against e's config with stdin.
func (e *env) run(stdin string, args ...string) result {
	var out, errOut syncBuffer
	c := &cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, bcryptCost: bcrypt.MinCost}
	code := runContext(context.Background(), append(args, "--config", e.config), c)
	return result{code, out.String(), errOut.String()}
}

// expect checks a result: exit code and substrings of stdout+stderr.
func (r result) expect(t *testing.T, what string, code int, contains ...string) {
	t.Helper()
	all := r.stdout + r.stderr
	if r.code != code {
		t.Errorf("%s: exit %d, want %d\n%s", what, r.code, code, all)
	}
	for _, s := range contains {
		if !strings.Contains(all, s) {
			t.Errorf("%s: output lacks %q:\n%s", what, s, all)
		}
	}
}

// openStore opens a store file read-only for inspection.
func openStore(t *testing.T, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestRunEntry(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "fleetd ") {
		t.Errorf("run(version) = %d, %q %q", code, out.String(), errOut.String())
	}
	if code := run([]string{"no-such-command"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "unknown command") {
		t.Errorf("run(no-such-command) = %d, %q", code, errOut.String())
	}
}

func TestVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	for _, tt := range []struct{ ldflags, want string }{
		{"", "fleetd dev"},
		{"v1.2.3", "fleetd v1.2.3 (" + runtime.Version()},
	} {
		version = tt.ldflags
		newEnv(t, "").run("", "version").expect(t, "version "+tt.ldflags, 0, tt.want)
	}
}

func TestConfigCommand(t *testing.T) {
	t.Setenv("FLEETD_ADMIN_PASSWORD", "Sup3r-secret")
	t.Setenv("FLEETD_WEB_ADDRESS", "127.0.0.1:9999")
	e := newEnv(t, "log: {format: json}\nadmin: {email: boss@example.com}\n")
	r := e.run("", "config")
	r.expect(t, "config", 0, "password: '***'", "email: boss@example.com", "address: 127.0.0.1:9999",
		"format: json", "dir: "+e.dir, "sessionTtl: 720h")
	if strings.Contains(r.stdout, "Sup3r-secret") {
		t.Errorf("config prints the secret:\n%s", r.stdout)
	}

	bad := newEnv(t, "web: {adress: x}\nprotocols: {gt06: {port: 70000}}\n")
	for _, cmd := range [][]string{{"config"}, {"serve"}, {"user", "list"}} {
		bad.run("", cmd...).expect(t, "bad config "+cmd[0], 1, "invalid configuration",
			"web.adress: unknown key", "protocols.gt06.port: 70000 is not a port")
	}
}

// Without a config file or flags fleetd runs on the embedded defaults.
func TestDefaultsWithoutConfig(t *testing.T) {
	t.Setenv("FLEETD_CONFIG", "")
	t.Chdir(t.TempDir())
	var out, errOut syncBuffer
	code := runContext(context.Background(), []string{"config"}, &cli{stdout: &out, stderr: &errOut})
	result{code, out.String(), errOut.String()}.expect(t, "config", 0, "dir: ./data\n", "address: :8082\n", "port: 5023\n")
}

func TestUserCommands(t *testing.T) {
	e := newEnv(t, "")
	steps := []struct {
		stdin    string
		args     []string
		code     int
		contains []string
	}{
		{"", []string{"user", "passwd", "--email", "a@example.com", "--password", "x"}, 1, []string{"no store at"}},
		{"", []string{"user", "list"}, 1, []string{"no store at " + filepath.Join(e.dir, "fleetd.db")}}, // passwd created none
		{"", []string{"user", "add", "--email", "alice@example.com", "--password", "pw-alice", "--name", "Alice"}, 0,
			[]string{"created user 1 alice@example.com (administrator: true)"}}, // the first user is an administrator
		{"pw-bob\n", []string{"user", "add", "--email", "bob@example.com"}, 0,
			[]string{"created user 2 bob@example.com (administrator: false)"}},
		{"", []string{"user", "add", "--email", "carol@example.com", "--password", "pw", "--admin"}, 0,
			[]string{"created user 3 carol@example.com (administrator: true)"}},
		{"", []string{"user", "add", "--email", "BOB@example.com", "--password", "x"}, 1, []string{"Duplicate"}},
		{"", []string{"user", "add", "--email", "not-an-email", "--password", "x"}, 1, []string{"not a valid address"}},
		{"", []string{"user", "add", "--email", "dave@example.com"}, 1, []string{"no password"}},
		{"", []string{"user", "add", "--password", "x"}, 1, []string{`required flag(s) "email" not set`}},
		{"new-bob\r\n", []string{"user", "passwd", "--email", "bob@example.com"}, 0, []string{"password of bob@example.com changed"}},
		{"", []string{"user", "passwd", "--email", "nobody@example.com", "--password", "x"}, 1, []string{`no user with e-mail "nobody@example.com"`}},
	}
	for i, s := range steps {
		e.run(s.stdin, s.args...).expect(t, fmt.Sprintf("step %d %v", i, s.args), s.code, s.contains...)
	}

	r := e.run("", "user", "list")
	r.expect(t, "user list", 0)
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		rows = append(rows, strings.Fields(line))
	}
	want := [][]string{
		{"ID", "EMAIL", "NAME", "ADMIN", "DISABLED"},
		{"1", "alice@example.com", "Alice", "true", "false"},
		{"2", "bob@example.com", "bob@example.com", "false", "false"},
		{"3", "carol@example.com", "carol@example.com", "true", "false"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("user list:\n got %v\nwant %v", rows, want)
	}

	db, err := storage.Open(filepath.Join(e.dir, "fleetd.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	core := app.New(db, app.Options{BcryptCost: bcrypt.MinCost})
	if _, err := core.Accounts.Login("bob@example.com", "new-bob", "", ""); err != nil {
		t.Errorf("login with the new password: %v", err)
	}
	if _, err := core.Accounts.Login("bob@example.com", "pw-bob", "", ""); err == nil {
		t.Error("the old password still works")
	}
}

// fleetd import traccar reads a Traccar (the password from stdin) into
// the store, and the Traccar administrator logs in to fleetd with it.
func TestImportTraccarCommand(t *testing.T) {
	fake := traccartest.New(traccartest.Fleet())
	defer fake.Close()
	e := newEnv(t, "")
	args := []string{"import", "traccar", "--url", fake.URL, "--email", traccartest.AdminEmail,
		"--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z", "--events"}
	e.run("", "import", "traccar", "--email", "x").expect(t, "no URL", 1, `required flag(s) "url" not set`)
	e.run(traccartest.AdminPassword+"\n", args...).expect(t, "import", 0,
		"Imported from Traccar 6.6 at "+fake.URL, "positions: 170 stored", "events: 8 stored", "history              [")
	e.run(traccartest.AdminPassword+"\n", args...).expect(t, "second import", 0, "positions: 0 stored, 0 already there")
	e.run("", "user", "list").expect(t, "user list", 0, "admin@example.com", "dana@example.com")
	db := openStore(t, filepath.Join(e.dir, "fleetd.db"))
	core := app.New(db, app.Options{BcryptCost: bcrypt.MinCost})
	if _, err := core.Accounts.Login(traccartest.AdminEmail, traccartest.AdminPassword, "", ""); err != nil {
		t.Errorf("the Traccar administrator cannot log in: %v", err)
	}
}

func TestBackupRestoreStopped(t *testing.T) {
	e := newEnv(t, "")
	e.run("", "user", "add", "--email", "a@example.com", "--password", "pw").expect(t, "add", 0)
	backup := filepath.Join(t.TempDir(), "backup.db")
	e.run("", "backup", backup).expect(t, "backup", 0, "from the store", "schema ")
	if n := countUsers(t, openStore(t, backup)); n != 1 {
		t.Errorf("backup holds %d users, want 1", n)
	}

	e.run("", "backup", filepath.Join(t.TempDir(), "missing-dir", "b.db")).expect(t, "backup into a missing dir", 1, "no such file")

	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("x"), 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run("", "restore", junk).expect(t, "restore junk", exitNeedsOperator, "not a fleetd store")
	e.run("", "user", "add", "--email", "b@example.com", "--password", "pw").expect(t, "store intact after a refused restore", 0)

	e.run("", "restore", backup).expect(t, "restore", 0, "restored "+backup, "the replaced store is kept as "+filepath.Join(e.dir, "fleetd.db.before-restore-"))
	if n := countUsers(t, openStore(t, filepath.Join(e.dir, "fleetd.db"))); n != 1 {
		t.Errorf("restored store holds %d users, want 1", n)
	}
	// What was added after the backup is in the safety copy.
	copies := storage.SafetyCopies(filepath.Join(e.dir, "fleetd.db"))
	if len(copies) != 1 || countUsers(t, openStore(t, copies[0])) != 2 {
		t.Errorf("safety copies %v, want one with both users", copies)
	}
}

// storeBytes reads the store file, to show a command left it alone.
func (e *env) storeBytes() []byte {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, "fleetd.db"))
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// Every command that opens the store refuses a store file cut short (bbolt
// would die of a fault reading past its end) with what to do, and exits 1;
// restore refuses such a backup before touching the store.
func TestDamagedStore(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\n"+anyPorts)
	e.run("", "user", "add", "--email", "a@example.com", "--password", "pw").expect(t, "add", 0)
	db, err := storage.Open(filepath.Join(e.dir, "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx model.Tx) error {
		for i := range 500 {
			if err := tx.Devices().Create(&model.Device{Name: strings.Repeat("n", 100), UniqueID: fmt.Sprint(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(t.TempDir(), "full.db")
	e.run("", "backup", full).expect(t, "backup", 0)
	whole, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(t.TempDir(), "half.db") // a copy interrupted halfway
	if err := os.WriteFile(half, whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}

	store := e.storeBytes()
	e.run("", "restore", half).expect(t, "restore of half a backup", exitNeedsOperator, "not a fleetd store", "cut short")
	if !bytes.Equal(e.storeBytes(), store) || len(storage.SafetyCopies(filepath.Join(e.dir, "fleetd.db"))) != 0 {
		t.Fatal("a refused restore changed the store or kept a copy")
	}

	if err := os.WriteFile(filepath.Join(e.dir, "fleetd.db"), whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{{"serve"}, {"user", "list"}, {"user", "add", "--email", "b@example.com", "--password", "pw"},
		{"user", "passwd", "--email", "a@example.com", "--password", "x"}, {"backup", filepath.Join(t.TempDir(), "b.db")},
		{"maintenance", "status"}, {"maintenance", "on"}}
	for _, cmd := range commands {
		e.run("", cmd...).expect(t, strings.Join(cmd, " ")+" on a damaged store", exitNeedsOperator,
			"the store file is damaged", "cut short", "restore it from a backup with fleetd restore FILE", "fleetd keeps no copy of it in "+e.dir)
	}

	e.run("", "restore", full).expect(t, "restore over the damaged store", 0, "restored "+full, "the replaced store is kept as")
	if n := countDevices(t, openStore(t, filepath.Join(e.dir, "fleetd.db"))); n != 500 {
		t.Errorf("restored store holds %d devices, want 500", n)
	}
	copies := storage.SafetyCopies(filepath.Join(e.dir, "fleetd.db"))
	if len(copies) != 1 {
		t.Fatalf("safety copies %v, want the damaged store", copies)
	}
	if kept, _ := os.ReadFile(copies[0]); !bytes.Equal(kept, whole[:len(whole)/2]) {
		t.Error("the safety copy is not the store that was replaced")
	}
	// Damaged again: the error names the copy fleetd kept.
	if err := os.WriteFile(filepath.Join(e.dir, "fleetd.db"), whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	e.run("", "user", "list").expect(t, "damaged with a copy", exitNeedsOperator, "copies fleetd kept: "+copies[0])
}

// A store written by a newer fleetd (a higher schema) is refused by every
// command, left untouched, and the error points at the copy the newer
// fleetd took before it migrated.
func TestNewerSchemaRefused(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\n"+anyPorts)
	e.run("", "user", "add", "--email", "a@example.com", "--password", "pw").expect(t, "add", 0)
	path := filepath.Join(e.dir, "fleetd.db")
	older := filepath.Join(t.TempDir(), "older.db")
	e.run("", "backup", older).expect(t, "backup", 0)
	setSchema(t, path, storage.CurrentSchema+1)
	newer := filepath.Join(t.TempDir(), "newer.db")
	if err := os.WriteFile(newer, e.storeBytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	// What the newer fleetd left before migrating: the way back.
	preMigration := storage.PreMigrationBackup(path, storage.CurrentSchema+1)
	if err := os.WriteFile(preMigration, mustRead(t, older), 0o600); err != nil {
		t.Fatal(err)
	}

	store := e.storeBytes()
	for _, cmd := range [][]string{{"serve"}, {"user", "list"}, {"user", "add", "--email", "b@example.com", "--password", "pw"},
		{"backup", filepath.Join(t.TempDir(), "b.db")}, {"maintenance", "on"}} {
		e.run("", cmd...).expect(t, strings.Join(cmd, " ")+" on a newer store", exitNeedsOperator,
			"written by a newer fleetd", fmt.Sprintf("file schema %d, this build %d", storage.CurrentSchema+1, storage.CurrentSchema),
			"run the newer fleetd, or restore a store this one can read with fleetd restore FILE", preMigration)
	}
	e.run("", "restore", newer).expect(t, "restore of a newer backup", exitNeedsOperator, "written by a newer fleetd")
	if !bytes.Equal(e.storeBytes(), store) {
		t.Fatal("a refused command changed the newer store")
	}
	e.run("", "restore", preMigration).expect(t, "back to the pre-migration copy", 0, "restored", "the replaced store is kept as")
	e.run("", "user", "list").expect(t, "user list after going back", 0, "a@example.com")
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func countUsers(t *testing.T, db *storage.DB) int {
	return count(t, db, func(tx model.Tx) (int, error) { return tx.Users().Count() })
}

func countDevices(t *testing.T, db *storage.DB) int {
	return count(t, db, func(tx model.Tx) (int, error) { return tx.Devices().Count() })
}

func count(t *testing.T, db *storage.DB, fn func(model.Tx) (int, error)) int {
	t.Helper()
	var n int
	if err := db.View(func(tx model.Tx) (err error) { n, err = fn(tx); return err }); err != nil {
		t.Fatal(err)
	}
	return n
}

// serving is a fleetd serve running in a goroutine.
type serving struct {
	*server
	log  *syncBuffer
	stop context.CancelFunc
	done chan int
}

// serve starts fleetd serve on e; configure sets test hooks.
func (e *env) serve(t *testing.T, configure ...func(*cli)) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *server, 1)
	s := &serving{log: &syncBuffer{}, stop: cancel, done: make(chan int, 1)}
	c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: s.log, bcryptCost: bcrypt.MinCost,
		started: func(srv *server) { ready <- srv }}
	for _, f := range configure {
		f(c)
	}
	go func() { s.done <- runContext(ctx, []string{"serve", "--config", e.config}, c) }()
	select {
	case s.server = <-ready:
	case code := <-s.done:
		t.Fatalf("serve exited with %d:\n%s", code, s.log)
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", s.log)
	}
	t.Cleanup(func() {
		cancel()
		<-s.done
	})
	return s
}

// logLines decodes serve's JSON log.
func (s *serving) logLines(t *testing.T) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.log.String()), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

func (s *serving) logged(t *testing.T, msg string) map[string]any {
	t.Helper()
	for _, l := range s.logLines(t) {
		if l["msg"] == msg {
			return l
		}
	}
	t.Fatalf("no log line %q in:\n%s", msg, s.log)
	return nil
}

func (s *serving) get(t *testing.T, path string) map[string]any {
	t.Helper()
	resp, err := http.Get("http://" + s.WebAddr.String() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := map[string]any{}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", path, resp.Status, err)
	}
	return body
}

// writer creates devices (and every tenth time a user) through the running
// server's core until stopped, remembering what has been committed.
type writer struct {
	mu        sync.Mutex
	committed []string // device uniqueIds and user e-mails, in commit order
	err       error
	stop      chan struct{}
	done      chan struct{}
}

func startWriter(core *app.Core) *writer {
	w := &writer{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			default:
			}
			id, err := fmt.Sprintf("dev-%d", i), error(nil)
			if i%10 == 9 {
				id = fmt.Sprintf("user-%d@example.com", i)
				_, err = core.Accounts.CreateUser(model.System(), func(u *model.User) error { u.Email, u.Password = id, "pw"; return nil })
			} else {
				_, err = core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = id, id; return nil })
			}
			w.mu.Lock()
			if err != nil {
				w.err = err
			} else {
				w.committed = append(w.committed, id)
			}
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return w
}

func (w *writer) snapshot() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.committed...)
}

func (w *writer) halt(t *testing.T) []string {
	close(w.stop)
	<-w.done
	if w.err != nil {
		t.Fatalf("writer: %v", w.err)
	}
	return w.snapshot()
}

// anyPorts puts every device listener on a free port, so tests never
// collide with each other or with a real server.
var anyPorts = func() string {
	s := "protocols:\n"
	for _, p := range catalog.ConfigDefaults().Protocols {
		s += "  " + p.Name + ": {port: 0}\n"
	}
	return s
}()

func TestServe(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	// A socket file left by a crashed server must not stop the next start.
	if err := os.MkdirAll(e.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale, err := net.Listen("unix", filepath.Join(e.dir, "fleetd.sock"))
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()

	s := e.serve(t)
	started := s.logged(t, "fleetd started")
	if started["web"] != s.WebAddr.String() || started["startupMs"] == nil {
		t.Errorf("start-up line = %v", started)
	}
	if got := s.get(t, "/api/health"); got["status"] != "ok" {
		t.Errorf("/api/health = %v", got)
	}
	if got := s.get(t, "/api/server"); got["version"] != versionString() {
		t.Errorf("/api/server = %v", got)
	}
	sock, err := os.Stat(filepath.Join(e.dir, "fleetd.sock"))
	if err != nil || sock.Mode().Type() != fs.ModeSocket || sock.Mode().Perm() != 0o600 {
		t.Errorf("control socket: %v, %v", sock, err)
	}

	// The generated administrator password is logged once and logs in.
	first := s.logged(t, "first start: created administrator; log in and change its password")
	if first["level"] != "WARN" || first["email"] != "admin@localhost.localdomain" {
		t.Errorf("first start line = %v", first)
	}
	resp, err := http.PostForm("http://"+s.WebAddr.String()+"/api/session",
		url.Values{"email": {"admin@localhost.localdomain"}, "password": {fmt.Sprint(first["password"])}})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("login with the logged password: %v %v", resp, err)
	}
	resp.Body.Close()

	// A device reports through its protocol listener and shows up in the API.
	s.deviceReports(t, fmt.Sprint(first["password"]))

	// While the server runs, the CLI is told why it cannot open the store.
	e.run("", "user", "list").expect(t, "user list while serving", 1, "in use by a running fleetd serve: stop fleetd serve or")
	e.run("", "serve").expect(t, "second serve", 1, "another fleetd serve is using "+e.dir)
	e.run("", "import", "traccar", "--url", "http://127.0.0.1:1", "--email", "a@example.com", "--password", "x").
		expect(t, "import while serving", 1, "fleetd serve is running and holds the store")

	// A hot backup while writers go on holds everything committed before it.
	w := startWriter(s.Core)
	for len(w.snapshot()) < 20 {
		time.Sleep(5 * time.Millisecond)
	}
	before := w.snapshot()
	backup := filepath.Join(t.TempDir(), "hot.db")
	e.run("", "backup", backup).expect(t, "hot backup", 0, "from the running fleetd serve", "schema ")
	all := w.halt(t)
	e.run("", "restore", backup).expect(t, "restore while serving", 1, "refusing to restore", "stop it first")
	if _, err := os.Stat(backup + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}
	db := openStore(t, backup)
	err = db.View(func(tx model.Tx) error {
		for _, id := range before {
			var err error
			if strings.Contains(id, "@") {
				_, err = tx.UserByEmail(id)
			} else {
				_, err = tx.DeviceByUniqueID(id)
			}
			if err != nil {
				return fmt.Errorf("%s committed before the backup is missing: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	t.Logf("backup taken after %d commits; %d commits by the end", len(before), len(all))

	// Cancelling the context stops serve cleanly.
	s.stop()
	if code := <-s.done; code != 0 {
		t.Fatalf("serve exit = %d:\n%s", code, s.log)
	}
	s.done <- 0 // for the cleanup
	s.logged(t, "stopping")
	if _, err := os.Stat(filepath.Join(e.dir, "fleetd.sock")); !os.IsNotExist(err) {
		t.Errorf("socket not removed on shutdown: %v", err)
	}

	// Now restore works and the store is the backup.
	e.run("", "restore", backup).expect(t, "restore after stop", 0, "restored")
	restored := openStore(t, filepath.Join(e.dir, "fleetd.db"))
	if got, want := countDevices(t, restored), countDevices(t, db); got != want {
		t.Errorf("restored store has %d devices, the backup %d", got, want)
	}
}

// deviceReports registers a GT06 tracker through the API, sends a real
// login and location frame (samples.md) to the gt06 listener, and expects
// the ACK and the position behind /api/positions.
func (s *serving) deviceReports(t *testing.T, password string) {
	t.Helper()
	api := "http://" + s.WebAddr.String()
	req, _ := http.NewRequest("POST", api+"/api/devices", strings.NewReader(`{"name":"Truck","uniqueId":"864717003283581"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin@localhost.localdomain", password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("create device: %v %v", resp, err)
	}
	resp.Body.Close()
	conn, err := net.Dial("tcp", s.Devices["gt06"].String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	for _, step := range []struct{ frame, ack string }{
		{"78780D01086471700328358100093F040D0A", "787805010009559 40d0a"},
		{"78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a", "787805120003903f0d0a"},
	} {
		frame, _ := hex.DecodeString(step.frame)
		conn.Write(frame)
		want, _ := hex.DecodeString(strings.ReplaceAll(step.ack, " ", ""))
		got := make([]byte, len(want))
		if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("reply to %s = %x (%v), want %x", step.frame, got, err, want)
		}
	}
	req, _ = http.NewRequest("GET", api+"/api/positions", nil)
	req.SetBasicAuth("admin@localhost.localdomain", password)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var positions []model.Position
	json.NewDecoder(resp.Body).Decode(&positions)
	if len(positions) != 1 || positions[0].Protocol != "gt06" || math.Abs(positions[0].Latitude-54.94535) > 1e-5 {
		t.Fatalf("positions = %+v, want the GT06 fix at 54.94535", positions)
	}
}

// TestSimulate drives simulated GT06 trackers against a running serve that
// registers unknown devices, and finds every acknowledged position stored.
func TestSimulate(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\ndevices: {autoRegister: true}\n"+anyPorts)
	s := e.serve(t)
	r := e.run("", "simulate", "--devices", "3", "--protocol", "gt06", "--server", s.Devices["gt06"].String(),
		"--interval", "100ms", "--duration", "1500ms", "--ramp", "10ms")
	r.expect(t, "simulate", 0, "acked")
	var stored int
	err := s.Core.Store().View(func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool {
			tx.Positions(d.ID, time.Time{}, time.Now().Add(time.Hour), func(*model.Position) bool { stored++; return true })
			return true
		})
	})
	if err != nil || stored < 3 {
		t.Fatalf("stored %d positions (%v) after simulating:\n%s", stored, err, r.stdout)
	}
	t.Logf("%d positions stored\n%s", stored, r.stdout)
}

// loginStatus posts an A2 login to the running server.
func loginStatus(t *testing.T, s *serving) int {
	t.Helper()
	resp, err := http.Post("http://"+s.WebAddr.String()+"/api2/auth/login", "application/json",
		strings.NewReader(`{"identifier":"nobody@example.com","password":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestMaintenanceCommand switches maintenance mode in the stopped store and
// through the control socket of a running server.
func TestMaintenanceCommand(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	e.run("", "maintenance", "on").expect(t, "no store yet", 1, "no store at")
	e.run("", "maintenance", "sideways").expect(t, "bad argument", 1, "invalid argument")
	e.run("pw\n", "user", "add", "--email", "admin@example.com", "--admin").expect(t, "user add", 0)
	e.run("", "maintenance", "on").expect(t, "on, stopped", 0, "maintenance mode on (store")
	e.run("", "maintenance", "status").expect(t, "status, stopped", 0, "maintenance mode on (store")

	s := e.serve(t)
	if got := loginStatus(t, s); got != http.StatusForbidden {
		t.Fatalf("login in maintenance: %d, want 403", got)
	}
	e.run("", "maintenance", "off").expect(t, "off, running", 0, "maintenance mode off (running server)")
	if got := loginStatus(t, s); got != http.StatusNotFound {
		t.Fatalf("login after maintenance: %d, want 404 (unknown identifier)", got)
	}
	e.run("", "maintenance", "status").expect(t, "status, running", 0, "maintenance mode off (running server)")
}

// serve announces readiness to systemd, answers the health command and
// serves /metrics to a local client.
func TestServeOperations(t *testing.T) {
	notify := filepath.Join(t.TempDir(), "notify")
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: notify, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("NOTIFY_SOCKET", notify)
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	s := e.serve(t)
	buf := make([]byte, 64)
	ln.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := ln.Read(buf); err != nil || string(buf[:n]) != "READY=1" {
		t.Errorf("systemd got %q, %v; want READY=1", buf[:n], err)
	}
	base := "http://" + s.WebAddr.String()
	e.run("", "health", "--url", base+"/api/health").expect(t, "health of a running server", 0)
	e.run("", "health", "--url", base+"/nothing-here").expect(t, "health of a wrong URL", 1, "404")

	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %s", resp.Status)
	}
	for _, want := range []string{`fleetd_device_connections_open{protocol="gt06"} 0`, `fleetd_device_connections_total{protocol="osmand"} 0`,
		"fleetd_store_size_bytes ", "fleetd_websocket_clients 0", "fleetd_data_free_bytes "} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body.String(), "fleetd_data_free_bytes -1") {
		t.Error("serve does not read the data directory's free space")
	}
}

// Stopping serve (SIGTERM cancels the same context) while devices report
// loses no position a device got its acknowledgement for.
func TestStopDuringIngestKeepsAckedPositions(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\ndevices: {autoRegister: true}\n"+anyPorts)
	s := e.serve(t)
	osmand := "http://" + s.Devices["osmand"].String()
	const devices = 8
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	var mu sync.Mutex
	acked := map[string][]time.Time{}
	enough := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for d := range devices {
		id := fmt.Sprintf("stop-%d", d)
		wg.Go(func() {
			for i := 0; ; i++ {
				at := base.Add(time.Duration(i) * time.Second)
				resp, err := client.Get(fmt.Sprintf("%s/?id=%s&lat=54.9&lon=24.1&timestamp=%d", osmand, id, at.Unix()))
				if err != nil {
					return // the server is gone
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					continue // not acknowledged: a device would resend
				}
				mu.Lock()
				acked[id] = append(acked[id], at)
				if len(acked[id]) >= 20 {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-enough:
	case <-time.After(60 * time.Second):
		t.Fatal("devices got no acknowledgements")
	}
	s.stop()
	if code := <-s.done; code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.log)
	}
	s.done <- 0 // for the cleanup
	wg.Wait()

	db := openStore(t, filepath.Join(e.dir, "fleetd.db"))
	total := 0
	for id, times := range acked {
		stored := map[int64]bool{}
		err := db.View(func(tx model.Tx) error {
			d, err := tx.DeviceByUniqueID(id)
			if err != nil {
				return err
			}
			return tx.Positions(d.ID, base, base.Add(24*time.Hour), func(p *model.Position) bool {
				stored[p.FixTime.Unix()] = true
				return true
			})
		})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, at := range times {
			if !stored[at.Unix()] {
				t.Errorf("%s: position at %s was acknowledged but is not stored", id, at)
			}
		}
		total += len(times)
	}
	t.Logf("%d acknowledged positions of %d devices all stored after the stop", total, len(acked))
	if !strings.Contains(s.log.String(), `"msg":"stopping"`) {
		t.Errorf("no stopping line in the log:\n%s", s.log)
	}
}

// devices.frameTimeout and devices.frameBudget reach the listeners: an
// unfinished GT06 frame is dropped after two seconds, and unfinished watch
// frames beyond a 1 MiB budget are dropped at once.
func TestServeDeviceFrameLimits(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\ndevices: {frameTimeout: 2s, frameBudget: 1048576}\n"+anyPorts)
	s := e.serve(t)
	dial := func(protocol string) net.Conn {
		c, err := net.Dial("tcp", s.Devices[protocol].String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(30 * time.Second))
		return c
	}
	for range 9 { // 9 x 130 KB of unfinished voice messages
		dial("watch").Write([]byte("[SG*8800000015*ffff*TK," + strings.Repeat("}\x01", 65000)))
	}
	gt06 := dial("gt06")
	gt06.Write([]byte{0x78, 0x78, 0x11, 0x01}) // the start of a login frame
	if _, err := io.ReadAll(gt06); err != nil {
		t.Fatalf("unfinished GT06 frame: %v, want the server to close the connection", err)
	}
	const timedOut, dropped = `fleetd_frames_failed_total{protocol="gt06",reason="timeout"} `, `fleetd_frames_failed_total{protocol="watch",reason="budget"} `
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://" + s.WebAddr.String() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := string(body)
		if strings.Contains(m, "\n"+timedOut+"1\n") && strings.Contains(m, "\n"+dropped) && !strings.Contains(m, "\n"+dropped+"0\n") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics counts no GT06 frame timed out or no watch frame dropped for the budget:\n%s", m)
		}
	}
}

// fleetd rollback undoes a real migration: it puts back the copy the
// migration took, at the older schema, and keeps the store it replaces;
// with no migration behind, it refuses.
func TestRollback(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\n"+anyPorts)
	e.run("", "rollback").expect(t, "rollback with no migration behind", 1, "nothing to roll back")
	e.run("", "user", "add", "--email", "before@example.com", "--password", "pw").expect(t, "add", 0)
	store := filepath.Join(e.dir, "fleetd.db")
	// The store as the previous fleetd left it: one schema older (the last
	// migration can run again on it).
	setSchema(t, store, storage.CurrentSchema-1)
	// The next command migrates it, copying it first, then stores more.
	e.run("", "user", "add", "--email", "after@example.com", "--password", "pw").expect(t, "add after the upgrade", 0)
	copyPath := storage.PreMigrationBackup(store, storage.CurrentSchema)

	e.run("", "rollback").expect(t, "rollback", 0, "restored "+copyPath,
		fmt.Sprintf("(schema %d)", storage.CurrentSchema-1), "the replaced store is kept as",
		fmt.Sprintf("before the upgrade to schema %d", storage.CurrentSchema))
	if kept := storage.SafetyCopies(store); len(kept) != 2 { // the pre-migration copy and the replaced store
		t.Fatalf("copies next to the store: %v", kept)
	}
	if v, err := storage.FileSchema(store); err != nil || v != storage.CurrentSchema-1 {
		t.Fatalf("store schema after the rollback: %d, %v", v, err)
	}
	db, err := storage.Open(store, storage.Options{Timeout: time.Second}) // this fleetd migrates it again
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx model.Tx) error {
		if _, err := tx.UserByEmail("before@example.com"); err != nil {
			return fmt.Errorf("before@example.com: %w", err)
		}
		if _, err := tx.UserByEmail("after@example.com"); err == nil {
			return fmt.Errorf("after@example.com, added after the upgrade, is still there")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// setSchema writes a schema version into the store's meta bucket.
func setSchema(t *testing.T, path string, v int) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = raw.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, uint64(v)))
	})
	if cerr := raw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// The generated first password is kept in the data directory (0600) until
// it is changed: each start says where it is, and the start after the
// change removes it.
func TestInitialPasswordFile(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	file := filepath.Join(e.dir, "initial-admin-password")
	restart := func(s *serving) {
		t.Helper()
		s.stop()
		if code := <-s.done; code != 0 {
			t.Fatalf("serve exit = %d:\n%s", code, s.log)
		}
		s.done <- 0 // for the cleanup
	}

	s := e.serve(t)
	first := s.logged(t, "first start: created administrator; log in and change its password")
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 || first["file"] != file {
		t.Fatalf("password file %v, %v; logged %v", info, err, first)
	}
	if data, _ := os.ReadFile(file); string(data) != fmt.Sprintf("%s\n%s\n", first["email"], first["password"]) {
		t.Errorf("file holds %q", data)
	}
	restart(s)

	s = e.serve(t)
	if l := s.logged(t, "the administrator still has the generated password; log in and change it"); l["file"] != file {
		t.Errorf("second start: %v", l)
	}
	users, err := s.Core.Accounts.Users(model.System(), 0)
	if err != nil || len(users) != 1 {
		t.Fatalf("users %v, %v", users, err)
	}
	if _, err := s.Core.Accounts.UpdateUser(model.System(), users[0].ID, func(u *model.User) error {
		u.Password = "a new long passphrase"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	restart(s)

	s = e.serve(t)
	s.logged(t, "the generated administrator password was changed; its file is removed")
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("file left: %v", err)
	}
}

// fleetd simulate against an address nobody listens on fails loudly.
func TestSimulateFailsWhenNothingConnects(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // a port nobody listens on
	e := newEnv(t, "")
	e.run("", "simulate", "--protocol", "gt06", "--devices", "2", "--duration", "1s", "--server", "127.0.0.1",
		"--port", fmt.Sprint(port)).expect(t, "simulate", 1, "no tracker connected and logged in")
}
