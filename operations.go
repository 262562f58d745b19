package main

// Operations around fleetd serve: the retention job, the 32-bit store size
// watch, systemd readiness, the start-up note about a schema upgrade and
// the health command container and service checks use.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/storage"
	"github.com/spf13/cobra"
)

const (
	retentionInterval = time.Hour
	sizeCheckInterval = 10 * time.Minute
	// arm32StoreWarn: on 32-bit ARM bbolt maps the whole file into a
	// process address space of which about 2 GB is usable, so the store
	// cannot grow much past this.
	arm32StoreWarn = 1536 << 20
)

// logUpgrade records a schema migration Open ran and the copy it took.
func logUpgrade(log *slog.Logger, db *storage.DB) {
	if up := db.Upgraded(); up.Backup != "" {
		log.Warn("store migrated to a new schema; the previous file is kept for a downgrade",
			"from", up.From, "to", up.To, "backup", up.Backup)
	}
}

// runRetention deletes old positions and events hourly. It runs even with
// no configured window: a device attribute may set one.
func runRetention(ctx context.Context, core *app.Core, db *storage.DB, cfg *config.Config) {
	core.RunRetention(ctx, db, app.RetentionOptions{Positions: cfg.Retention.Positions, Events: cfg.Retention.Events}, retentionInterval)
}

// watchStoreSize warns on 32-bit ARM while the store nears what the
// address space can map.
func watchStoreSize(ctx context.Context, db *storage.DB, log *slog.Logger) {
	if runtime.GOARCH != "arm" && runtime.GOARCH != "386" {
		return
	}
	tick := time.NewTicker(sizeCheckInterval)
	defer tick.Stop()
	for {
		if size, err := db.Size(); err == nil {
			checkStoreSize(log, size, runtime.GOARCH)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// checkStoreSize logs a warning and reports true when a 32-bit build's
// store is past arm32StoreWarn.
func checkStoreSize(log *slog.Logger, size int64, goarch string) bool {
	if (goarch != "arm" && goarch != "386") || size < arm32StoreWarn {
		return false
	}
	log.Warn("the store nears the ~2 GB a 32-bit fleetd can map: set retention.positions, or move to a 64-bit OS (arm64)",
		"sizeBytes", size, "goarch", goarch)
	return true
}

// notifySystemd sends state ("READY=1", "STOPPING=1") to systemd's
// notification socket when fleetd runs as a Type=notify service; without
// NOTIFY_SOCKET it does nothing.
func notifySystemd(log *slog.Logger, state string) {
	if err := sdNotify(os.Getenv("NOTIFY_SOCKET"), state); err != nil {
		log.Warn("systemd notification failed", "state", state, "err", err)
	}
}

func sdNotify(socket, state string) error {
	if socket == "" {
		return nil
	}
	if strings.HasPrefix(socket, "@") { // abstract namespace
		socket = "\x00" + socket[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: socket, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(state))
	return err
}

// healthCommand checks a running server through GET /api/health, for
// container HEALTHCHECKs and scripts (the image has no curl).
func (c *cli) healthCommand() *cobra.Command {
	var url string
	cmd := &cobra.Command{Use: "health", Short: "Check that a running fleetd serve answers (exit 0) or not (exit 1)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withConfig(cmd.Context(), func(ctx context.Context, cfg *config.Config) error {
				if url == "" {
					url = healthURL(cfg.Web.Address)
				}
				return checkHealth(ctx, url)
			})
		}}
	cmd.Flags().StringVar(&url, "url", "", "health URL (default: /api/health on web.address, via 127.0.0.1 for a wildcard address)")
	return cmd
}

// healthURL is the health endpoint on this machine for a listen address.
func healthURL(address string) string {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		host, port = "", "8082"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/api/health"
}

func checkHealth(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("health: " + url + " answered " + resp.Status)
	}
	return nil
}
