package main

// Wiring of account access (OTP delivery, push) and the maintenance switch.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/delivery"
	"github.com/fleetd/fleetd/storage"
	"github.com/spf13/cobra"
)

// withDelivery adds the configured OTP and push senders to opts; a
// channel left unconfigured stays nil, which the core logs instead.
func withDelivery(opts *app.Options, cfg *config.Config) error {
	opts.Accounts.Maintenance = cfg.Server.Maintenance
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

// handleMaintenance serves the switch on the control socket, for
// `fleetd maintenance` while serve holds the store.
func handleMaintenance(mux *http.ServeMux, core *app.Core) {
	answer := func(w http.ResponseWriter) {
		on, err := core.Maintenance()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]bool{"maintenance": on})
	}
	mux.HandleFunc("GET /maintenance", func(w http.ResponseWriter, _ *http.Request) { answer(w) })
	mux.HandleFunc("PUT /maintenance", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 16))
		on, ok := map[string]bool{"on": true, "off": false}[strings.TrimSpace(string(body))]
		if !ok {
			http.Error(w, "body must be on or off", http.StatusBadRequest)
			return
		}
		if err := core.SetMaintenance(on); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		answer(w)
	})
}

// controlClient talks HTTP to the control socket.
func controlClient(socket string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		},
	}}
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
		on, err = remoteMaintenance(ctx, cfg.Data.SocketPath(), action)
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

func remoteMaintenance(ctx context.Context, socket, action string) (bool, error) {
	client := controlClient(socket)
	defer client.CloseIdleConnections()
	method, body := http.MethodGet, ""
	if action != "status" {
		method, body = http.MethodPut, action
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://fleetd/maintenance", strings.NewReader(body))
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("the store is locked by a running fleetd serve, but its control socket does not answer: %w", err)
	}
	defer resp.Body.Close()
	var st struct{ Maintenance bool }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&st) != nil {
		return false, fmt.Errorf("control socket answered %s", resp.Status)
	}
	return st.Maintenance, nil
}
