// Command fleetd is a self-hosted GPS fleet tracking server in one binary.
// This file is the composition root: the command tree, and the wiring of
// config, storage, the core, the device listeners and the web adapter.
// What the administration commands (user, backup, ...) do is in admin/.
package main

import (
	"cmp"
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
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/buildinfo"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/delivery"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/jobs"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/app/systemd"
	"github.com/fleetd/fleetd/app/throttle"
	"github.com/fleetd/fleetd/app/traccarimport"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/protocols/simulate"
	"github.com/fleetd/fleetd/protocols/simulate/bench"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/backups"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/control"
	"github.com/fleetd/fleetd/web/control/admin"
	"github.com/fleetd/fleetd/web/health"
	"github.com/fleetd/fleetd/web/https"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/spf13/cobra"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version string

const (
	// shutdownTimeout bounds how long open requests may finish on stop.
	shutdownTimeout = 10 * time.Second
	// exitNeedsOperator is the exit status for a store that no restart can
	// open (damaged, or of a newer schema): the systemd unit names it in
	// RestartPreventExitStatus, so the service stops instead of restarting
	// in a loop. 78 is sysexits' EX_CONFIG.
	exitNeedsOperator = 78
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
	c := &cli{stdin: os.Stdin, stdout: stdout, stderr: stderr}
	return c.restartIfAsked(runContext(ctx, args, c))
}

// restartIfAsked returns code, unless serve ended cleanly because an
// administrator asked for a restart: then the process becomes a new run
// of its executable (an upgraded binary at the same path included), with
// the same arguments and environment. The process id stays, so a
// supervisor (systemd, a container runtime) sees one service that
// reloaded.
func (c *cli) restartIfAsked(code int) int {
	if !c.restart || code != 0 {
		return code
	}
	exe, err := os.Executable()
	if err == nil {
		err = syscall.Exec(exe, os.Args, os.Environ())
	}
	fmt.Fprintf(c.stderr, "fleetd: restart: %v\n", err)
	return 1
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

// cli is one invocation: its streams, flags and test hooks.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	configPath     string
	// started, when set, is called once serve accepts requests (tests).
	started func(s *server)
	// restart is set when serve stopped because an administrator asked
	// for a restart (POST /api/server/reboot); run then starts fleetd
	// again.
	restart bool
	// bcryptCost overrides the core's password hashing cost when non-zero
	// (tests: the default is deliberately slow).
	bcryptCost int
	// repairing, when set, runs before the start-up repair (tests hold it).
	repairing func()
	// benchExe, when set, says how fleetd bench runs fleetd (tests: the
	// test binary).
	benchExe func(*bench.Options)
	// cpuProfile and memProfile are serve's hidden --cpuprofile and
	// --memprofile: where the run's CPU profile and, at its end, its heap
	// profile go (diagnostics, docs/benchmarks.md).
	cpuProfile, memProfile string
}

// ---- the command tree ----

func (c *cli) commands() *cobra.Command {
	root := &cobra.Command{Use: "fleetd", Short: "Self-hosted GPS fleet tracking server", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().StringVar(&c.configPath, "config", os.Getenv(config.EnvConfigFile),
		"config file (YAML); also "+config.EnvConfigFile+"; none: built-in defaults")
	var healthURL string
	healthCmd := &cobra.Command{Use: "health", Short: "Check that a running fleetd serve answers (exit 0) or not (exit 1)", Args: cobra.NoArgs,
		RunE: c.withConfig(func(ctx context.Context, cfg *config.Config, _ []string) error {
			return health.Check(ctx, cmp.Or(healthURL, health.URL(cfg.Web.Address, cfg.Web.TLS.Enabled())))
		})}
	healthCmd.Flags().StringVar(&healthURL, "url", "", "health URL (default: /api/health on web.address, via 127.0.0.1 for a wildcard address)")
	serveCmd := &cobra.Command{Use: "serve", Short: "Run the server", Args: cobra.NoArgs, RunE: c.withConfig(c.serve)}
	serveCmd.Flags().StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	serveCmd.Flags().StringVar(&c.memProfile, "memprofile", "", "write a heap profile to this file when the run ends")
	serveCmd.Flags().MarkHidden("cpuprofile")
	serveCmd.Flags().MarkHidden("memprofile")
	root.AddCommand(
		serveCmd,
		c.userCommands(), c.importCommands(), healthCmd, c.simulateCommand(), c.benchCommand(),
		&cobra.Command{Use: "maintenance on|off|status",
			Short: "Switch maintenance mode (account access answers \"Server not running!\"), also while serve runs",
			Args:  cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs), ValidArgs: []string{"on", "off", "status"},
			RunE: c.admin(func(ctx context.Context, a *admin.Commands, args []string) error { return a.Maintenance(ctx, args[0]) })},
		&cobra.Command{Use: "backup FILE", Short: "Write a consistent copy of the store to FILE, also while serve runs", Args: cobra.ExactArgs(1),
			RunE: c.admin(func(ctx context.Context, a *admin.Commands, args []string) error { return a.Backup(ctx, args[0]) })},
		&cobra.Command{Use: "restore FILE", Short: "Replace the store with the backup FILE (fleetd serve must be stopped)", Args: cobra.ExactArgs(1),
			RunE: c.admin(func(_ context.Context, a *admin.Commands, args []string) error { return a.Restore(args[0]) })},
		&cobra.Command{Use: "rollback", Short: "Put back the store as it was before the last schema migration, for the previous fleetd (fleetd serve must be stopped)",
			Args: cobra.NoArgs, RunE: c.admin(func(_ context.Context, a *admin.Commands, _ []string) error { return a.Rollback() })},
		&cobra.Command{Use: "version", Short: "Print the version", Args: cobra.NoArgs, Run: func(*cobra.Command, []string) {
			fmt.Fprintf(c.stdout, "fleetd %s (%s %s/%s)\n", versionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
		}},
		&cobra.Command{Use: "config", Short: "Print the effective configuration (secrets as ***)", Args: cobra.NoArgs,
			RunE: c.withConfig(func(_ context.Context, cfg *config.Config, _ []string) error {
				out, err := registry().YAML(cfg)
				if err == nil {
					_, err = c.stdout.Write(out)
				}
				return err
			})},
	)
	return root
}

func (c *cli) userCommands() *cobra.Command {
	var email, password, name string
	var administrator bool
	add := &cobra.Command{Use: "add", Short: "Add a user (password from --password or one line on stdin)", Args: cobra.NoArgs,
		RunE: c.admin(func(_ context.Context, a *admin.Commands, _ []string) error {
			return a.AddUser(email, name, password, administrator)
		})}
	add.Flags().StringVar(&email, "email", "", "e-mail (the login)")
	add.Flags().StringVar(&password, "password", "", "password; read from stdin when not given")
	add.Flags().StringVar(&name, "name", "", "display name (default: the e-mail)")
	add.Flags().BoolVar(&administrator, "admin", false, "make the user an administrator")
	passwd := &cobra.Command{Use: "passwd", Short: "Set a user's password and end its sessions", Args: cobra.NoArgs,
		RunE: c.admin(func(_ context.Context, a *admin.Commands, _ []string) error { return a.SetPassword(email, password) })}
	passwd.Flags().StringVar(&email, "email", "", "e-mail of the user")
	passwd.Flags().StringVar(&password, "password", "", "new password; read from stdin when not given")
	for _, cmd := range []*cobra.Command{add, passwd} {
		_ = cmd.MarkFlagRequired("email") // cannot fail: the flag exists
	}
	list := &cobra.Command{Use: "list", Short: "List users", Args: cobra.NoArgs,
		RunE: c.admin(func(_ context.Context, a *admin.Commands, _ []string) error { return a.ListUsers() })}
	user := &cobra.Command{Use: "user", Short: "Manage users in the store (fleetd serve must be stopped)"}
	user.AddCommand(add, list, passwd)
	return user
}

// importCommands bring another tracking server's data into the store.
func (c *cli) importCommands() *cobra.Command {
	var in admin.TraccarImport
	traccar := &cobra.Command{Use: "traccar --url URL --email E [--password P] [--from DATE [--to DATE] [--events]]",
		Short: "Import users, devices, groups, geofences, notifications... and history from a running Traccar (fleetd serve must be stopped)",
		Long: "Reads a running Traccar server through its REST API, as one of its administrators, and adds what fleetd does not\n" +
			"have yet: users, groups, devices, geofences, calendars, notifications, maintenance, drivers, computed attributes,\n" +
			"saved commands, their links, and with --from the positions (and with --events the events) of that span.\n" +
			"Running it again creates nothing twice and goes on where the last one stopped (docs/migrating.md).",
		Args: cobra.NoArgs,
		RunE: c.admin(func(ctx context.Context, a *admin.Commands, _ []string) error {
			return a.ImportTraccar(ctx, in, time.Now())
		})}
	f := traccar.Flags()
	f.StringVar(&in.URL, "url", "", "the Traccar server's address, like https://traccar.example.com")
	f.StringVar(&in.Email, "email", "", "e-mail of a Traccar administrator")
	f.StringVar(&in.Password, "password", "", "its password; read from stdin when not given")
	f.StringVar(&in.TOTP, "totp", "", "its one-time code, when its account has two-factor authentication")
	f.StringVar(&in.From, "from", "", "import the history from this date (2026-01-01, local midnight) or time (RFC 3339); none: no history")
	f.StringVar(&in.To, "to", "", "up to this date (the day included) or time (default: now)")
	f.BoolVar(&in.Events, "events", false, "import the devices' events of the span too")
	f.BoolVar(&in.Recheck, "recheck", false, "read again the spans of history earlier imports did (positions Traccar received late)")
	f.IntVar(&in.MaxPositions, "max-positions", traccarimport.DefaultMaxPositions, "Traccar's report.maxPositions, when it is set")
	for _, name := range []string{"url", "email"} {
		_ = traccar.MarkFlagRequired(name) // cannot fail: the flag exists
	}
	imp := &cobra.Command{Use: "import", Short: "Import another tracking server's data into the store (fleetd serve must be stopped)"}
	imp.AddCommand(traccar)
	return imp
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
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, report)
			if why := report.Failure(); why != "" {
				return errors.New("simulate: " + why)
			}
			return nil
		}}
	o.Flags(cmd.Flags())
	return cmd
}

// benchCommand is the hidden `fleetd bench`: the device-load benchmark of
// docs/benchmarks.md and the null GT06 server it measures the network
// path with.
func (c *cli) benchCommand() *cobra.Command {
	o := bench.Options{Out: c.stdout}
	ingestCmd := &cobra.Command{Use: "ingest", Short: "Durable positions/s of fleetd serve against a null GT06 server, the store, latency, memory",
		Long: "Runs fleetd serve and a null GT06 server (fleetd bench null-gt06) as processes of their own, in turn,\n" +
			"against --devices simulated GT06 trackers in a closed loop, then both in an open loop at a quarter of\n" +
			"the null server's rate, and times the store's appends in this process. Prints every run and the medians.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Exe == "" {
				exe, err := os.Executable()
				if err != nil {
					return err
				}
				o.Exe = exe
			}
			_, err := bench.Ingest(cmd.Context(), o)
			return err
		}}
	f := ingestCmd.Flags()
	f.IntVar(&o.Devices, "devices", 5000, "simulated GT06 trackers")
	f.IntVar(&o.Runs, "runs", 5, "interleaved rounds (a fleetd, a null server and a store run each)")
	f.DurationVar(&o.Ramp, "ramp", 10*time.Second, "spread the connections over this long")
	f.DurationVar(&o.Settle, "settle", 2*time.Second, "wait this long after the ramp before measuring")
	f.DurationVar(&o.Measure, "measure", 15*time.Second, "the measured window of each run")
	f.StringVar(&o.Dir, "dir", "", "directory for the runs' stores (default: the system's temporary directory)")
	var listen string
	nullCmd := &cobra.Command{Use: "null-gt06", Short: "A GT06 server that answers every frame at once and stores nothing",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, bench.NullReadyPrefix+ln.Addr().String())
			return bench.NullGT06(cmd.Context(), ln)
		}}
	nullCmd.Flags().StringVar(&listen, "listen", "127.0.0.1:5023", "address to listen on")
	cmd := &cobra.Command{Use: "bench", Short: "Benchmarks (docs/benchmarks.md)", Hidden: true}
	cmd.AddCommand(ingestCmd, nullCmd)
	if c.benchExe != nil {
		c.benchExe(&o)
	}
	return cmd
}

// withConfig is a command's RunE: it loads the configuration, then runs fn.
func (c *cli) withConfig(fn func(ctx context.Context, cfg *config.Config, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cfg, err := registry().Load(c.configPath)
		if err != nil {
			return err
		}
		return fn(cmd.Context(), cfg, args)
	}
}

// admin is an administration command's RunE, on the configured store.
func (c *cli) admin(fn func(ctx context.Context, a *admin.Commands, args []string) error) func(*cobra.Command, []string) error {
	return c.withConfig(func(ctx context.Context, cfg *config.Config, args []string) error {
		return fn(ctx, &admin.Commands{Config: cfg, In: c.stdin, Out: c.stdout, Err: c.stderr, NewCore: func(db *storage.DB) *app.Core {
			return app.New(db, c.coreOptions(cfg, cfg.Log.Logger(c.stderr)))
		}}, args)
	})
}

// registry is the config registry of this build: its keys with those of
// the device protocols it ships.
func registry() *config.Registry { return config.NewRegistry(catalog.ConfigDefaults()) }

// ---- wiring ----

// versionString is the -ldflags version, or "dev" with the commit.
func versionString() string { return buildinfo.Version(version) }

func (c *cli) coreOptions(cfg *config.Config, log *slog.Logger) app.Options {
	return app.Options{
		Version: versionString(), SessionTTL: cfg.Web.SessionTTL, BcryptCost: c.bcryptCost, Logger: log,
		Throttle: throttle.Options{MaxPerIP: cfg.Security.LoginMaxPerIP, MaxPerAccount: cfg.Security.LoginMaxPerAccount,
			Window: cfg.Security.LoginWindow},
		Reports:      fleet.ReportOptions{MaxPeriod: cfg.Reports.MaxPeriod, MaxPositions: cfg.Reports.MaxPositions},
		Ingest:       ingest.Options{AutoRegister: cfg.Devices.AutoRegister, AutoRegisterPerHour: cfg.Devices.AutoRegisterPerHour},
		CommandTypes: catalog.CommandTypes(),
		Office: office.Options{FilesDir: cfg.Data.FilesDir(), MaxFileSize: int64(cfg.Files.MaxSize),
			FileTypes: cfg.Files.Types, ExpiringDays: cfg.Documents.ExpiringDays},
		Servicing: office.ServiceOptions{IntervalDays: cfg.Maintenance.IntervalDays, IntervalKm: float64(cfg.Maintenance.IntervalKm)},
		Space: ops.Options{Low: cfg.Data.LowFreeSpace,
			Statfs:    func() (uint64, uint64, error) { return storage.FreeSpace(cfg.Data.Dir) },
			StoreSize: func() (int64, error) { return storage.FileSize(cfg.Data.StorePath()) }},
	}
}

// server is a running fleetd serve.
type server struct {
	Core         *app.Core
	WebAddr      net.Addr
	RedirectAddr net.Addr            // web.tls.redirectAddress's listener, nil without
	Devices      map[string]net.Addr // device listeners by protocol
}

// writeHeapProfile writes the heap profile (allocations since the start,
// and what is in use now) to path.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	pprof.Lookup("allocs").WriteTo(f, 0)
}

func (c *cli) serve(ctx context.Context, cfg *config.Config, _ []string) error {
	began := time.Now()
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if c.memProfile != "" {
		defer writeHeapProfile(c.memProfile)
	}
	log := cfg.Log.Logger(c.stderr)
	m := metrics.New(versionString()) // before the store: it observes the store's commits
	db, err := storage.Open(cfg.Data.StorePath(), storage.Options{OnCommit: m.ObserveCommit})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("another fleetd serve is using %s: %w", cfg.Data.Dir, err)
	}
	if err != nil {
		return storage.Advise(err, cfg.Data.StorePath(), cfg.Data.Dir)
	}
	defer logFailure(log, "close store", db.Close)
	if up := db.Upgraded(); up.Backup != "" {
		log.Warn("store migrated to a new schema; the previous file is kept for a downgrade", "from", up.From, "to", up.To, "backup", up.Backup)
	}
	senders, err := delivery.Configured(cfg.Mail, cfg.SMS, cfg.Push, cfg.Notificators) // unconfigured ones stay nil, which the core logs
	if err != nil {
		return err
	}
	opts := c.coreOptions(cfg, log)
	opts.Accounts.Mail, opts.Accounts.SMS, opts.Push.Sender = senders.Mail, senders.SMS, senders.Push
	if m, ok := senders.Mail.(fleet.Mailer); ok {
		opts.Reports.Mailer = m
	}
	opts.Reports.Log = log
	opts.Channels = notify.Channels{Mail: senders.Mail, SMS: senders.SMS, Telegram: senders.Telegram, Webhook: senders.Webhook,
		TelegramChat: cfg.Notificators.TelegramChat, MaxAge: cfg.Notificators.TimeThreshold}
	opts.Accounts.Maintenance = cfg.Server.Maintenance
	opts.Accounts.PublicURL = cfg.Web.URL
	opts.Accounts.OTPSends = throttle.Options{MaxPerIP: cfg.Security.OTPMaxPerIP, MaxPerAccount: cfg.Security.OTPMaxPerAccount,
		Window: cfg.Security.OTPWindow}
	core := app.New(db, opts)
	// Runs after the listeners and the web server have stopped (defers run
	// last-in first-out): the devices' live positionId and lastUpdate the
	// ingest has not written yet reach the store before it closes.
	defer logFailure(log, "device state not flushed", core.Ingest.FlushDevices)
	defer logFailure(log, "usage statistics not flushed", core.Activity.Flush)
	// An empty store gets its first administrator; a generated password is shown once.
	if err := bootstrapAdmin(core, cfg, log); err != nil {
		return err
	}
	ctl, err := control.Listen(cfg.Data.SocketPath(), db.Backup, core.Accounts, log)
	if err != nil {
		return err
	}
	defer logFailure(log, "close control socket", ctl.Close)
	spill, err := core.Office.TempDir()
	if err != nil {
		return err
	}
	defer web.SpillUploadsTo(spill)()
	m.Watch(core, db)
	devices, err := catalog.Start("", cfg.EnabledPorts(), core.Ingest, protocols.Options{AckLatency: m.ObserveAck, Ingested: m.ObserveIngest, Tap: core.Ingest.Tap,
		IdleTimeout: cfg.Devices.IdleTimeout, FrameTimeout: cfg.Devices.Frames.Timeout, MaxConnsPerIP: cfg.Devices.MaxConnectionsPerIP,
		Budget: protocols.NewFrameBudget(cfg.Devices.Frames.Budget), Logger: log}) // one budget for all their unfinished frames
	if err != nil {
		return err
	}
	// Closing the listeners stops accepting and waits for the ingest calls
	// in flight: every ACKed position is committed before the store closes.
	defer logFailure(log, "close device listeners", devices.Close)
	m.Listeners(devices.Stats)
	webLn, err := net.Listen("tcp", cfg.Web.Address)
	if err != nil {
		return fmt.Errorf("web.address: %w", err)
	}
	w := cfg.Web // an upload of files.maxSize gets room for the multipart framing
	webOpts := web.Options{Logger: log, SecureCookies: w.SecureCookies || w.TLS.Enabled(), AllowedOrigins: w.AllowedOrigins,
		Trackers: catalog.Listeners(devices.Ports()), AutoPort: devices.Ports()[protocols.AutoName], TileURL: w.Map.TileURL, TileAttribution: w.Map.Attribution,
		Metrics: m, MetricsToken: cfg.Metrics.Token, TrustedProxies: w.TrustedProxies, ProxyHeader: w.ProxyHeader,
		Limits: httpx.Limits{ReadTimeout: w.ReadTimeout, MinBodyRate: w.MinBodyRate, WriteTimeout: w.WriteTimeout, IdleTimeout: w.IdleTimeout,
			MaxBody: w.MaxBodySize, MaxUpload: cfg.Files.MaxSize + 1<<20, MaxConns: w.MaxConnections, MaxConnsPerIP: w.MaxConnsPerIP}}
	f := web.New(core, webOpts)
	t := w.TLS
	ln, redirect, err := https.Listen(web.Listener(webLn, webOpts), https.Options{CertFile: t.CertFile, KeyFile: t.KeyFile,
		RedirectAddress: t.RedirectAddress, ACME: https.ACMEOptions{Hosts: t.ACMEHosts, Email: t.ACMEEmail,
			Directory: t.ACMEDirectory, Roots: t.ACMERoots, Cache: filepath.Join(cfg.Data.Dir, "acme")}}, log)
	if err != nil {
		webLn.Close()
		return err
	}
	defer redirect.Close()
	webErr := make(chan error, 1)
	go func() { webErr <- f.Listener(ln) }()
	ctx, cancel := context.WithCancel(ctx)
	var background sync.WaitGroup
	background.Go(func() { c.backgroundJobs(cfg, core, db, log).Run(ctx) })
	background.Go(func() { core.Notify.Run(ctx) })
	background.Go(func() {
		core.Ingest.RunRetention(ctx, db, ingest.RetentionOptions{Positions: cfg.Retention.Positions, Events: cfg.Retention.Events, Media: cfg.Retention.Media}, time.Hour)
	})
	background.Go(func() { core.Ops.WatchSpace(ctx, time.Minute) })
	defer background.Wait() // before the store closes
	defer cancel()
	log.Info("fleetd started", "version", versionString(), "web", webLn.Addr().String(), "devices", devices.String(),
		"data", cfg.Data.Dir, "startupMs", time.Since(began).Milliseconds())
	systemd.Notify(log, "READY=1")
	if c.started != nil {
		c.started(&server{Core: core, WebAddr: webLn.Addr(), RedirectAddr: redirect.Addr(), Devices: devices.Addrs})
	}
	select {
	case <-ctx.Done():
		log.Info("stopping")
		systemd.Notify(log, "STOPPING=1")
	case <-core.Ops.RestartRequested():
		log.Info("restarting, as an administrator asked")
		// systemd waits for the READY=1 of the new run.
		systemd.Notify(log, "RELOADING=1")
		c.restart = true
	case err = <-webErr:
		err = fmt.Errorf("web server: %w", err)
	}
	if serr := f.ShutdownWithTimeout(shutdownTimeout); serr != nil {
		log.Error("web shutdown", "err", serr)
	}
	return err
}

// bootstrapAdmin creates the first administrator of an empty store. A
// generated password is logged once and kept in the data directory's
// initial-admin-password (0600) until it has been changed, so an operator
// who missed the log line (or whose start failed right after) finds it;
// each start says where it is, and removes the file once it no longer
// logs in.
func bootstrapAdmin(core *app.Core, cfg *config.Config, log *slog.Logger) error {
	file := cfg.Data.InitialPasswordFile()
	switch first, generated, err := core.Accounts.Bootstrap(cfg.Admin.Email, cfg.Admin.Password); {
	case err != nil:
		return fmt.Errorf("first start: %w", err)
	case generated != "":
		if err := os.WriteFile(file, []byte(first.Email+"\n"+generated+"\n"), 0o600); err != nil {
			return fmt.Errorf("first start: keep the generated password: %w", err)
		}
		log.Warn("first start: created administrator; log in and change its password", "email", first.Email, "password", generated,
			"file", file)
		return nil
	case first != nil:
		log.Info("first start: created administrator", "email", first.Email)
		return nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	email, password, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	still, err := core.Accounts.StillHasPassword(email, password)
	switch {
	case err != nil:
		return err
	case still:
		log.Warn("the administrator still has the generated password; log in and change it", "email", email, "file", file)
	default:
		log.Info("the generated administrator password was changed; its file is removed", "file", file)
		return os.Remove(file)
	}
	return nil
}

// backgroundJobs are serve's jobs; retention and the free-space watch run
// as loops of the core, for now.
func (c *cli) backgroundJobs(cfg *config.Config, core *app.Core, db *storage.DB, log *slog.Logger) *jobs.Scheduler {
	s := jobs.New(log)
	// The devices' positionId, lastUpdate and status, which a crash leaves
	// behind the store, are derived from it; start-up does not wait for it.
	s.Add(jobs.Job{Name: "start-up repair of device records", Run: func(ctx context.Context) error {
		if c.repairing != nil {
			c.repairing()
		}
		began := time.Now()
		n, err := core.Ingest.RepairDevices(ctx, cfg.Devices.StatusTimeout)
		if err == nil {
			log.Info("start-up repair of device records done", "repaired", n, "tookMs", time.Since(began).Milliseconds())
		}
		return err
	}})
	// Scheduled reports: the calendar periods that ended since the last
	// check (as Traccar's TaskReports, every 15 minutes).
	lastCheck := time.Now()
	s.Add(jobs.Job{Name: "scheduled reports", First: 15 * time.Minute, Every: 15 * time.Minute,
		Run: jobs.Counted(log, "scheduled reports mailed", "count", func() (int, error) {
			now := time.Now()
			n, err := core.Fleet.RunScheduledReports(lastCheck, now)
			lastCheck = now
			return n, err
		})})
	s.Add(jobs.Job{Name: "usage statistics", First: time.Hour, Every: time.Hour,
		Run: func(context.Context) error { return core.Activity.Flush() }})
	if keep := cfg.Retention.Audit; keep > 0 {
		s.Add(jobs.Job{Name: "audit log pruning", Every: 24 * time.Hour,
			Run: jobs.Counted(log, "pruned audit log entries", "count", func() (int, error) { return core.Activity.PruneAudit(keep) })})
	}
	s.Add(jobs.Job{Name: "session pruning", Every: time.Hour,
		Run: jobs.Counted(log, "pruned expired sessions", "count", core.Accounts.PruneSessions)})
	// Each reminder (30, 7, 1 days before, on the day) goes out once: the
	// short interval makes them timely after a restart or a failed delivery.
	s.Add(jobs.Job{Name: "document expiry reminders", Every: time.Hour,
		Run: jobs.Counted(log, "document expiry reminders", "sent", func() (int, error) {
			return core.Office.NotifyDocumentExpiry(func(userID int64, title, body string) error {
				return core.Notify.NotifyUser(userID, notify.Notification{Title: title, Body: body})
			})
		})})
	s.Add(jobs.Job{Name: "file sweep", Every: time.Hour,
		Run: jobs.Counted(log, "removed files left by a crash or a failed removal", "count", core.Office.SweepFiles)})
	s.Add(jobs.Job{Name: "device status sweep", First: time.Minute, Every: time.Minute,
		Run: func(context.Context) error { return core.Ingest.SweepStatus(cfg.Devices.StatusTimeout) }})
	if j, ok := db.MapLimitJob(log); ok {
		s.Add(j)
	}
	s.Add((&backups.Schedule{DB: db, FilesDir: cfg.Data.FilesDir(), Dir: cfg.BackupDir(), Every: cfg.Backup.Schedule, Keep: cfg.Backup.Keep,
		Reserve: cfg.Data.LowFreeSpace}).Job(core.Ops.NoteBackup, log))
	return s
}

// logFailure runs fn (a deferred close) and logs msg with its error.
func logFailure(log *slog.Logger, msg string, fn func() error) {
	if err := fn(); err != nil {
		log.Error(msg, "err", err)
	}
}
