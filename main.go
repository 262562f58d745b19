// Command fleetd is a self-hosted GPS fleet tracking server in one binary.
//
// This file is the composition root: the command tree, and the wiring of
// config, storage, the core and the web adapter. Rules live in app/,
// configuration in app/config, persistence in storage/.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/buildinfo"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/delivery"
	"github.com/fleetd/fleetd/app/jobs"
	"github.com/fleetd/fleetd/app/systemd"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/protocols/simulate"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/backups"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/control"
	"github.com/fleetd/fleetd/web/health"
	"github.com/fleetd/fleetd/web/https"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/spf13/cobra"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version string

const (
	// cliLockTimeout is how long CLI commands wait for the store's lock
	// before concluding that fleetd serve holds it.
	cliLockTimeout = 300 * time.Millisecond
	// shutdownTimeout bounds how long open requests may finish on stop.
	shutdownTimeout = 10 * time.Second
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes one fleetd command and returns the process exit code.
// SIGINT and SIGTERM stop it gracefully.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, restore the default handling: a second one
	// ends a shutdown that hangs.
	context.AfterFunc(ctx, stop)
	return runContext(ctx, args, &cli{stdin: os.Stdin, stdout: stdout, stderr: stderr})
}

// runContext is run with the context, streams and hooks given: cancelling
// ctx stops serve as a signal would.
func runContext(ctx context.Context, args []string, c *cli) int {
	root := c.commands()
	root.SetArgs(args)
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(c.stderr, "fleetd: %v\n", err)
		if errors.Is(err, storage.ErrDamaged) || errors.Is(err, storage.ErrNewerSchema) {
			return exitNeedsOperator
		}
		return 1
	}
	return 0
}

// exitNeedsOperator is the exit status for a store that no restart can
// open (damaged, or of a newer schema): the systemd unit names it in
// RestartPreventExitStatus, so the service stops instead of restarting in
// a loop. 78 is sysexits' EX_CONFIG.
const exitNeedsOperator = 78

// cli is one invocation: its streams, flags and test hooks.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	configPath     string
	// started, when set, is called once serve accepts requests (tests).
	started func(s *server)
	// bcryptCost overrides the core's password hashing cost when non-zero
	// (tests: the default is deliberately slow).
	bcryptCost int
	// repairing, when set, runs before the start-up repair (tests hold it).
	repairing func()
}

func (c *cli) commands() *cobra.Command {
	root := &cobra.Command{
		Use:           "fleetd",
		Short:         "Self-hosted GPS fleet tracking server",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&c.configPath, "config", os.Getenv(config.EnvConfigFile),
		"config file (YAML); also "+config.EnvConfigFile+"; none: built-in defaults")
	root.AddCommand(
		&cobra.Command{Use: "serve", Short: "Run the server", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return c.withConfig(cmd.Context(), c.serve) }},
		c.userCommands(),
		c.healthCommand(),
		c.maintenanceCommand(),
		c.simulateCommand(),
		&cobra.Command{Use: "backup FILE", Short: "Write a consistent copy of the store to FILE, also while serve runs",
			Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return c.withConfig(cmd.Context(), func(ctx context.Context, cfg *config.Config) error { return c.backup(ctx, cfg, args[0]) })
			}},
		&cobra.Command{Use: "restore FILE", Short: "Replace the store with the backup FILE (fleetd serve must be stopped)",
			Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return c.withConfig(cmd.Context(), func(_ context.Context, cfg *config.Config) error { return c.restore(cfg, args[0]) })
			}},
		&cobra.Command{Use: "rollback", Short: "Put back the store as it was before the last schema migration, for the previous fleetd (fleetd serve must be stopped)",
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				return c.withConfig(cmd.Context(), func(_ context.Context, cfg *config.Config) error { return c.rollback(cfg) })
			}},
		&cobra.Command{Use: "version", Short: "Print the version", Args: cobra.NoArgs,
			Run: func(*cobra.Command, []string) {
				fmt.Fprintf(c.stdout, "fleetd %s (%s %s/%s)\n", versionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			}},
		&cobra.Command{Use: "config", Short: "Print the effective configuration (secrets as ***)", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				return c.withConfig(cmd.Context(), func(_ context.Context, cfg *config.Config) error {
					out, err := registry().YAML(cfg)
					if err == nil {
						_, err = c.stdout.Write(out)
					}
					return err
				})
			}},
	)
	return root
}

// registry is the config registry of this build: its keys with those of
// the device protocols it ships.
func registry() *config.Registry { return config.NewRegistry(catalog.ConfigDefaults()) }

// withConfig loads the configuration, then runs fn with it.
func (c *cli) withConfig(ctx context.Context, fn func(context.Context, *config.Config) error) error {
	cfg, err := registry().Load(c.configPath)
	if err != nil {
		return err
	}
	return fn(ctx, cfg)
}

// versionString is the -ldflags version, or "dev" with the commit.
func versionString() string { return buildinfo.Version(version) }

func newLogger(l config.Log, w io.Writer) *slog.Logger {
	o := &slog.HandlerOptions{Level: l.Level}
	if l.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

func (c *cli) coreOptions(cfg *config.Config, log *slog.Logger) app.Options {
	return app.Options{
		Version:    versionString(),
		SessionTTL: cfg.Web.SessionTTL,
		BcryptCost: c.bcryptCost,
		Throttle: app.ThrottleOptions{
			MaxPerIP:      cfg.Security.LoginMaxPerIP,
			MaxPerAccount: cfg.Security.LoginMaxPerAccount,
			Window:        cfg.Security.LoginWindow,
		},
		Ingest:       app.IngestOptions{AutoRegister: cfg.Devices.AutoRegister, AutoRegisterPerHour: cfg.Devices.AutoRegisterPerHour},
		CommandTypes: catalog.CommandTypes(),
		Office: app.OfficeOptions{FilesDir: cfg.Data.FilesDir(), MaxFileSize: int64(cfg.Files.MaxSize),
			FileTypes: cfg.Files.Types, ExpiringDays: cfg.Documents.ExpiringDays},
		Maintenance: app.MaintenanceOptions{IntervalDays: cfg.Maintenance.IntervalDays, IntervalKm: float64(cfg.Maintenance.IntervalKm)},
		Space: app.SpaceOptions{Low: cfg.Data.LowFreeSpace,
			Statfs: func() (uint64, uint64, error) { return storage.FreeSpace(cfg.Data.Dir) },
			StoreSize: func() (int64, error) {
				fi, err := os.Stat(cfg.Data.StorePath())
				if err != nil {
					return 0, err
				}
				return fi.Size(), nil
			}},
		Logger: log,
	}
}

// webLimits bound the HTTP server's requests. An upload of files.maxSize
// gets room for the multipart framing.
func webLimits(cfg *config.Config) httpx.Limits {
	w := cfg.Web
	return httpx.Limits{ReadTimeout: w.ReadTimeout, MinBodyRate: w.MinBodyRate, WriteTimeout: w.WriteTimeout,
		IdleTimeout: w.IdleTimeout, MaxBody: w.MaxBodySize, MaxUpload: cfg.Files.MaxSize + 1<<20,
		MaxConns: w.MaxConnections, MaxConnsPerIP: w.MaxConnsPerIP}
}

// ---- serve ----

// server is a running fleetd serve.
type server struct {
	Core         *app.Core
	WebAddr      net.Addr
	RedirectAddr net.Addr            // web.tls.redirectAddress's listener, nil without
	Devices      map[string]net.Addr // device listeners by protocol
}

func (c *cli) serve(ctx context.Context, cfg *config.Config) error {
	began := time.Now()
	log := newLogger(cfg.Log, c.stderr)
	m := metrics.New(versionString()) // before the store: it observes the store's commits
	db, err := storage.Open(cfg.Data.StorePath(), storage.Options{OnCommit: m.ObserveCommit})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("another fleetd serve is using %s: %w", cfg.Data.Dir, err)
	}
	if err != nil {
		return storeError(cfg, err)
	}
	defer closeLogged(log, "store", db)
	logUpgrade(log, db)
	opts := c.coreOptions(cfg, log)
	if err := withDelivery(&opts, cfg); err != nil {
		return err
	}
	core := app.New(db, opts)
	// Runs after the listeners and the web server have stopped (defers run
	// last-in first-out): the devices' live positionId and lastUpdate the
	// ingest has not written yet reach the store before it closes.
	defer func() {
		if err := core.FlushDevices(); err != nil {
			log.Error("device state not flushed", "err", err)
		}
	}()
	if err := bootstrap(core, cfg.Admin, log); err != nil {
		return err
	}
	ctl, err := control.Listen(cfg.Data.SocketPath(), db.Backup, core, log)
	if err != nil {
		return err
	}
	defer closeLogged(log, "control socket", ctl)
	restoreTemp, err := useTempDir(core)
	if err != nil {
		return err
	}
	defer restoreTemp()
	m.Watch(core, db)
	devices, err := startDevices(cfg, core, m, log)
	if err != nil {
		return err
	}
	// Closing the listeners stops accepting and waits for the ingest calls
	// in flight: every ACKed position is committed before the store closes.
	defer closeLogged(log, "device listeners", devices)
	m.Listeners(devices.Stats)
	webLn, err := net.Listen("tcp", cfg.Web.Address)
	if err != nil {
		return fmt.Errorf("web.address: %w", err)
	}
	webOpts := web.Options{Logger: log, SecureCookies: cfg.Web.SecureCookies || cfg.Web.TLS.Enabled(), Limits: webLimits(cfg),
		AllowedOrigins: cfg.Web.AllowedOrigins, Metrics: m, MetricsToken: cfg.Metrics.Token,
		TrustedProxies: cfg.Web.TrustedProxies, ProxyHeader: cfg.Web.ProxyHeader}
	f := web.New(core, webOpts)
	ln := web.Listener(webLn, webOpts)
	var redirectAddr net.Addr
	if t := cfg.Web.TLS; t.Enabled() {
		var redirect *https.Redirecting
		ln, redirect, err = https.Listen(ln, https.Options{CertFile: t.CertFile, KeyFile: t.KeyFile, RedirectAddress: t.RedirectAddress,
			ACME: https.ACMEOptions{Hosts: t.ACMEHosts, Email: t.ACMEEmail, Directory: t.ACMEDirectory, Roots: t.ACMERoots,
				Cache: filepath.Join(cfg.Data.Dir, "acme")}}, log)
		if err != nil {
			webLn.Close()
			return err
		}
		if redirect != nil {
			defer redirect.Close()
			redirectAddr = redirect.Addr()
		}
	}
	webErr := make(chan error, 1)
	go func() { webErr <- f.Listener(ln) }()

	ctx, cancel := context.WithCancel(ctx)
	var background sync.WaitGroup
	background.Go(func() { periodicJobs(cfg, core, db, log).Run(ctx) })
	background.Go(func() { core.RunPush(ctx) })
	background.Go(func() {
		core.RunRetention(ctx, db, app.RetentionOptions{Positions: cfg.Retention.Positions, Events: cfg.Retention.Events}, time.Hour)
	})
	background.Go(func() { core.WatchSpace(ctx, time.Minute) })
	background.Go(func() { repairDevices(ctx, core, cfg.Devices.StatusTimeout, log, c.repairing) })
	defer background.Wait() // before the store closes
	defer cancel()

	log.Info("fleetd started", "version", versionString(), "web", webLn.Addr().String(), "devices", listening(devices),
		"data", cfg.Data.Dir, "startupMs", time.Since(began).Milliseconds())
	systemd.Notify(log, "READY=1")
	if c.started != nil {
		c.started(&server{Core: core, WebAddr: webLn.Addr(), RedirectAddr: redirectAddr, Devices: devices.Addrs})
	}
	select {
	case <-ctx.Done():
		log.Info("stopping")
		systemd.Notify(log, "STOPPING=1")
	case err = <-webErr:
		err = fmt.Errorf("web server: %w", err)
	}
	if serr := f.ShutdownWithTimeout(shutdownTimeout); serr != nil {
		log.Error("web shutdown", "err", serr)
	}
	return err
}

// startDevices opens a listener for every enabled protocol; their
// unfinished frames share one budget.
func startDevices(cfg *config.Config, sink protocols.HTTPSink, m *metrics.Metrics, log *slog.Logger) (*catalog.Listening, error) {
	ports := map[string]int{}
	for _, p := range cfg.Protocols {
		if p.Enabled {
			ports[p.Name] = p.Port
		}
	}
	return catalog.Start("", ports, sink, protocols.Options{
		AckLatency:    m.ObserveAck,
		Ingested:      m.ObserveIngest,
		IdleTimeout:   cfg.Devices.IdleTimeout,
		FrameTimeout:  cfg.Devices.Frames.Timeout,
		Budget:        protocols.NewFrameBudget(cfg.Devices.Frames.Budget),
		MaxConnsPerIP: cfg.Devices.MaxConnectionsPerIP,
		Logger:        log,
	})
}

// listening renders the device listeners for the start-up log line.
func listening(l *catalog.Listening) string {
	var parts []string
	for name, addr := range l.Addrs {
		parts = append(parts, name+"="+addr.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// repairDevices derives every device's positionId, lastUpdate and status
// from the store, which a crash leaves ahead of the device records
// (app.Core.RepairDevices). It runs in the background: start-up does not
// wait for it, however large the store.
func repairDevices(ctx context.Context, core *app.Core, statusTimeout time.Duration, log *slog.Logger, before func()) {
	if before != nil {
		before()
	}
	began := time.Now()
	n, err := core.RepairDevices(ctx, statusTimeout)
	switch {
	case ctx.Err() != nil: // stopping
	case err != nil:
		log.Error("start-up repair of device records failed", "repaired", n, "err", err)
	default:
		log.Info("start-up repair of device records done", "repaired", n, "tookMs", time.Since(began).Milliseconds())
	}
}

// useTempDir points the process's temporary files (TMPDIR: the HTTP server
// spills large multipart uploads there) at this run's directory among the
// uploaded files, where the file sweep finds what a crash leaves. The
// returned func restores TMPDIR and removes the directory.
func useTempDir(core *app.Core) (func(), error) {
	dir, err := core.TempDir()
	if err != nil || dir == "" {
		return func() {}, err
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}, nil
}

// bootstrap prepares an empty store and shows a generated administrator
// password once.
func bootstrap(core *app.Core, a config.Admin, log *slog.Logger) error {
	admin, generated, err := core.Bootstrap(a.Email, a.Password)
	switch {
	case err != nil:
		return fmt.Errorf("first start: %w", err)
	case generated != "":
		log.Warn("first start: created administrator; log in and change its password",
			"email", admin.Email, "password", generated)
	case admin != nil:
		log.Info("first start: created administrator", "email", admin.Email)
	}
	return nil
}

func closeLogged(log *slog.Logger, what string, c io.Closer) {
	if err := c.Close(); err != nil {
		log.Error("close "+what, "err", err)
	}
}

// ---- backup and restore ----

func (c *cli) backup(ctx context.Context, cfg *config.Config, dst string) error {
	from := "store " + cfg.Data.StorePath()
	db, err := storage.Open(cfg.Data.StorePath(), storage.Options{Timeout: cliLockTimeout, ReadOnly: true})
	var source func(io.Writer) (int64, error)
	switch {
	case err == nil:
		defer db.Close()
		source = db.Backup
	case errors.Is(err, storage.ErrLocked):
		from = "running fleetd serve"
		source = func(w io.Writer) (int64, error) { return control.Client{Socket: cfg.Data.SocketPath()}.Backup(ctx, w) }
	default:
		return storeError(cfg, err)
	}
	n, schema, err := backups.WriteVerified(dst, source)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(c.stdout, "backup %s: %d bytes, schema %d, from the %s\n", dst, n, schema, from)
	return nil
}

func (c *cli) restore(cfg *config.Config, src string) error {
	dst := cfg.Data.StorePath()
	r, err := backups.Restore(src, dst, cfg.Data.FilesDir(), time.Now())
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("refusing to restore: %s is in use by a running fleetd serve; stop it first", dst)
	}
	if r.Store {
		fmt.Fprintf(c.stdout, "restored %s into %s (schema %d)\n", src, dst, r.Schema)
	}
	if r.Kept != "" {
		fmt.Fprintf(c.stdout, "the replaced store is kept as %s: it holds what was added after the backup; delete it once the restored store is confirmed\n", r.Kept)
	}
	if r.Files {
		fmt.Fprintf(c.stdout, "restored the uploaded files into %s\n", cfg.Data.FilesDir())
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// rollback is restore from the copy the last schema migration took: an
// upgrade undone. What was stored since is in the replaced store, which
// restore keeps.
func (c *cli) rollback(cfg *config.Config) error {
	last, err := storage.LatestPreMigrationCopy(cfg.Data.StorePath())
	if err != nil {
		return fmt.Errorf("rollback: %w: this fleetd has migrated no store here, so there is nothing to roll back", err)
	}
	if err := c.restore(cfg, last.Path); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "this was the store before the upgrade to schema %d: start the fleetd you ran before it; this one would migrate the store again\n", last.To)
	return nil
}

// ---- user administration ----

func (c *cli) userCommands() *cobra.Command {
	user := &cobra.Command{Use: "user", Short: "Manage users in the store (fleetd serve must be stopped)"}
	var email, password, name string
	var admin bool
	add := &cobra.Command{Use: "add", Short: "Add a user (password from --password or one line on stdin)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withCore(cmd.Context(), createStore, func(core *app.Core) error {
				pw, err := c.password(password)
				if err != nil {
					return err
				}
				u, err := core.CreateUser(app.System(), func(u *app.User) error {
					u.Email, u.Name, u.Password, u.Administrator = email, name, pw, admin
					return nil
				})
				if err == nil {
					fmt.Fprintf(c.stdout, "created user %d %s (administrator: %v)\n", u.ID, u.Email, u.Administrator)
				}
				return err
			})
		}}
	add.Flags().StringVar(&email, "email", "", "e-mail (the login)")
	add.Flags().StringVar(&password, "password", "", "password; read from stdin when not given")
	add.Flags().StringVar(&name, "name", "", "display name (default: the e-mail)")
	add.Flags().BoolVar(&admin, "admin", false, "make the user an administrator")
	list := &cobra.Command{Use: "list", Short: "List users", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withCore(cmd.Context(), readStore, c.listUsers)
		}}
	passwd := &cobra.Command{Use: "passwd", Short: "Set a user's password and end its sessions", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withCore(cmd.Context(), writeStore, func(core *app.Core) error {
				pw, err := c.password(password)
				if err == nil {
					err = core.SetPassword(email, pw)
				}
				if errors.Is(err, app.ErrNotFound) {
					return fmt.Errorf("no user with e-mail %q", email)
				}
				if err == nil {
					fmt.Fprintf(c.stdout, "password of %s changed\n", email)
				}
				return err
			})
		}}
	passwd.Flags().StringVar(&email, "email", "", "e-mail of the user")
	passwd.Flags().StringVar(&password, "password", "", "new password; read from stdin when not given")
	for _, cmd := range []*cobra.Command{add, passwd} {
		_ = cmd.MarkFlagRequired("email") // cannot fail: the flag exists
	}
	user.AddCommand(add, list, passwd)
	return user
}

func (c *cli) listUsers(core *app.Core) error {
	users, err := core.Users(app.System(), 0)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tADMIN\tDISABLED")
	for _, u := range users {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%v\t%v\n", u.ID, u.Email, u.Name, u.Administrator, u.Disabled)
	}
	return tw.Flush()
}

// password is the flag's value, or else one line read from stdin, so a
// password need not appear in the process list or the shell history.
func (c *cli) password(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("no password: give --password or write it as one line on stdin")
	}
	return line, nil
}

// storeUse says how a CLI command opens the store.
type storeUse int

const (
	readStore   storeUse = iota // shared lock, no changes
	writeStore                  // the store must exist
	createStore                 // a missing store is created
)

// withCore opens the store for a CLI command and runs fn on a core over it.
func (c *cli) withCore(ctx context.Context, use storeUse, fn func(*app.Core) error) error {
	return c.withConfig(ctx, func(_ context.Context, cfg *config.Config) error {
		if use == writeStore {
			if _, err := os.Stat(cfg.Data.StorePath()); err != nil {
				return storeError(cfg, err)
			}
		}
		db, err := storage.Open(cfg.Data.StorePath(), storage.Options{Timeout: cliLockTimeout, ReadOnly: use == readStore})
		if err != nil {
			return storeError(cfg, err)
		}
		defer db.Close()
		return fn(app.New(db, c.coreOptions(cfg, newLogger(cfg.Log, c.stderr))))
	})
}

// storeError explains the ways opening the store commonly fails, and what
// to do about a store fleetd cannot use.
func storeError(cfg *config.Config, err error) error {
	switch {
	case errors.Is(err, storage.ErrLocked):
		return fmt.Errorf("the store %s is in use by a running fleetd serve: stop fleetd serve or "+
			"use the web UI / API instead (backups work while it runs: fleetd backup FILE)", cfg.Data.StorePath())
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no store at %s yet (data.dir %q): start fleetd serve once or add a user with fleetd user add", cfg.Data.StorePath(), cfg.Data.Dir)
	case errors.Is(err, storage.ErrDamaged):
		return fmt.Errorf("%w\nfleetd cannot use this store: restore it from a backup with fleetd restore FILE (%s)", err, safetyCopies(cfg))
	case errors.Is(err, storage.ErrNewerSchema):
		return fmt.Errorf("%w\nrun the newer fleetd, or restore a store this one can read with fleetd restore FILE (%s)", err, safetyCopies(cfg))
	}
	return err
}

// safetyCopies names the store copies fleetd keeps next to the store,
// candidates for fleetd restore.
func safetyCopies(cfg *config.Config) string {
	copies := storage.SafetyCopies(cfg.Data.StorePath())
	if len(copies) == 0 {
		return "fleetd keeps no copy of it in " + cfg.Data.Dir
	}
	return "copies fleetd kept: " + strings.Join(copies, ", ")
}

// simulateCommand drives simulated trackers against a server: demo data
// for a new installation, and the load tool of docs/benchmarks.md.
func (c *cli) simulateCommand() *cobra.Command {
	o := simulate.Options{}
	cmd := &cobra.Command{Use: "simulate", Short: "Drive simulated GPS trackers against a server (demo data, load tests)",
		Long: "Connects --devices simulated trackers speaking --protocol to --server and sends a position every\n" +
			"--interval along plausible routes. The devices must be registered (uniqueIds " +
			"--first-id, --first-id+1, ...) or the server must have devices.autoRegister on.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Log = c.stderr
			report, err := simulate.Run(cmd.Context(), o)
			if err == nil {
				fmt.Fprintln(c.stdout, report)
			}
			return err
		}}
	f := cmd.Flags()
	f.IntVar(&o.Devices, "devices", 10, "number of simulated trackers")
	f.StringVar(&o.Protocol, "protocol", "gt06", "protocol: "+strings.Join(simulate.Protocols(), ", "))
	f.DurationVar(&o.Interval, "interval", 10*time.Second, "time between two positions of one tracker")
	f.StringVar(&o.Server, "server", "localhost", "server host, or host:port")
	f.IntVar(&o.Port, "port", 0, "server port (0: the protocol's default port)")
	f.DurationVar(&o.Duration, "duration", 0, "how long to run (0: until interrupted)")
	f.DurationVar(&o.Ramp, "ramp", 0, "spread the first connections over this long (0: one interval)")
	f.Int64Var(&o.FirstID, "first-id", 860000000000000, "IMEI of the first tracker")
	f.Int64Var(&o.Seed, "seed", 1, "seed for routes and timing (same seed, same run)")
	return cmd
}

// ---- account access: OTP delivery, push, the maintenance switch ----

// withDelivery adds the configured OTP and push senders to opts; a
// channel left unconfigured stays nil, which the core logs instead.
func withDelivery(opts *app.Options, cfg *config.Config) error {
	opts.Accounts.Maintenance = cfg.Server.Maintenance
	opts.Accounts.OTPSends = app.ThrottleOptions{MaxPerIP: cfg.Security.OTPMaxPerIP,
		MaxPerAccount: cfg.Security.OTPMaxPerAccount, Window: cfg.Security.OTPWindow}
	if m := cfg.Mail; m.Host != "" {
		if m.From == "" {
			return errors.New("mail.smtp.from is required with mail.smtp.host")
		}
		opts.Accounts.Mail = delivery.SMTP{Host: m.Host, Port: m.Port, Username: m.Username, Password: m.Password,
			From: m.From, StartTLS: m.StartTLS}
	}
	if s := cfg.SMS; s.URL != "" {
		opts.Accounts.SMS = delivery.SMS{URL: s.URL, Authorization: s.Authorization, Template: s.Template, ContentType: s.ContentType}
	}
	if p := cfg.Push; p.CredentialsFile != "" {
		fcm, err := delivery.NewFCM(p.CredentialsFile, p.Endpoint, p.ProjectID, p.TokenURL, nil)
		if err != nil {
			return err
		}
		opts.Push.Sender = fcm
	}
	return nil
}

func (c *cli) maintenanceCommand() *cobra.Command {
	return &cobra.Command{Use: "maintenance on|off|status",
		Short: "Switch maintenance mode (account access answers \"Server not running!\"), also while serve runs",
		Args:  cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs), ValidArgs: []string{"on", "off", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.withConfig(cmd.Context(), func(ctx context.Context, cfg *config.Config) error {
				on, where, err := c.maintenance(ctx, cfg, args[0])
				if err != nil {
					return err
				}
				state := map[bool]string{true: "on", false: "off"}[on]
				fmt.Fprintf(c.stdout, "maintenance mode %s (%s)\n", state, where)
				if cfg.Server.Maintenance && !on {
					fmt.Fprintln(c.stdout, "note: server.maintenance in the config forces it on while serve runs")
				}
				return nil
			})
		}}
}

// maintenance applies action to the store directly, or through the
// control socket when serve holds it.
func (c *cli) maintenance(ctx context.Context, cfg *config.Config, action string) (on bool, where string, err error) {
	if _, err := os.Stat(cfg.Data.StorePath()); err != nil {
		return false, "", storeError(cfg, err)
	}
	db, err := storage.Open(cfg.Data.StorePath(), storage.Options{Timeout: cliLockTimeout, ReadOnly: action == "status"})
	if errors.Is(err, storage.ErrLocked) {
		on, err = control.Client{Socket: cfg.Data.SocketPath()}.Maintenance(ctx, action)
		return on, "running server", err
	}
	if err != nil {
		return false, "", storeError(cfg, err)
	}
	defer db.Close()
	core := app.New(db, c.coreOptions(cfg, newLogger(cfg.Log, c.stderr)))
	if action != "status" {
		if err := core.SetMaintenance(action == "on"); err != nil {
			return false, "", err
		}
	}
	on, err = core.Maintenance()
	return on, "store " + cfg.Data.StorePath(), err
}

// ---- operations: retention, 32-bit store size, systemd readiness, health ----

// logUpgrade records a schema migration Open ran and the copy it took.
func logUpgrade(log *slog.Logger, db *storage.DB) {
	if up := db.Upgraded(); up.Backup != "" {
		log.Warn("store migrated to a new schema; the previous file is kept for a downgrade",
			"from", up.From, "to", up.To, "backup", up.Backup)
	}
}

// periodicJobs are serve's periodic jobs. Retention and the free-space
// watch run as loops of the core, for now.
func periodicJobs(cfg *config.Config, core *app.Core, db *storage.DB, log *slog.Logger) *jobs.Scheduler {
	s := jobs.New(log)
	s.Add(jobs.Job{Name: "session pruning", Every: time.Hour,
		Run: logCount(log, "pruned expired sessions", "count", core.PruneSessions)})
	// Each reminder (30, 7, 1 days before and on the day) goes out once, so
	// the short interval only makes them timely after a restart or a failed
	// delivery.
	s.Add(jobs.Job{Name: "document expiry reminders", Every: time.Hour,
		Run: logCount(log, "document expiry reminders", "sent", func() (int, error) {
			return core.NotifyDocumentExpiry(func(userID int64, title, body string) error {
				return core.NotifyUser(userID, app.Notification{Title: title, Body: body})
			})
		})})
	s.Add(jobs.Job{Name: "file sweep", Every: time.Hour,
		Run: logCount(log, "removed files left by a crash or a failed removal", "count", core.SweepFiles)})
	s.Add(jobs.Job{Name: "device status sweep", First: time.Minute, Every: time.Minute,
		Run: func(context.Context) error { return core.SweepStatus(cfg.Devices.StatusTimeout) }})
	if j, ok := db.MapLimitJob(log); ok {
		s.Add(j)
	}
	s.Add(backupSchedule(cfg, db).Job(core.NoteBackup, log))
	return s
}

// logCount is a job running fn that logs msg with the count fn reports,
// when it is not zero.
func logCount(log *slog.Logger, msg, key string, fn func() (int, error)) func(context.Context) error {
	return func(context.Context) error {
		n, err := fn()
		if err == nil && n > 0 {
			log.Info(msg, key, n)
		}
		return err
	}
}

func backupSchedule(cfg *config.Config, db *storage.DB) *backups.Schedule {
	dir := cfg.BackupDir()
	return &backups.Schedule{DB: db, FilesDir: cfg.Data.FilesDir(), Dir: dir, Every: cfg.Backup.Schedule, Keep: cfg.Backup.Keep,
		Reserve: cfg.Data.LowFreeSpace,
		Room: func() (int64, error) {
			free, _, err := storage.FreeSpace(dir)
			return int64(free), err
		}}
}

// healthCommand checks a running server through GET /api/health, for
// container HEALTHCHECKs and scripts (the image has no curl).
func (c *cli) healthCommand() *cobra.Command {
	var url string
	cmd := &cobra.Command{Use: "health", Short: "Check that a running fleetd serve answers (exit 0) or not (exit 1)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withConfig(cmd.Context(), func(ctx context.Context, cfg *config.Config) error {
				if url == "" {
					url = health.URL(cfg.Web.Address, cfg.Web.TLS.Enabled())
				}
				return health.Check(ctx, url)
			})
		}}
	cmd.Flags().StringVar(&url, "url", "", "health URL (default: /api/health on web.address, via 127.0.0.1 for a wildcard address)")
	return cmd
}
