// Package control is the Unix socket a running fleetd serve listens on
// (data.dir/fleetd.sock, mode 0600: access is by file permission), so CLI
// commands reach what bbolt's lock keeps them from opening. It is HTTP
// over the socket: GET /backup streams a consistent copy of the store, GET
// and PUT /maintenance read and switch maintenance mode. Client is the
// CLI's side.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

const (
	// maxSocketPath is the portable limit of a Unix socket path (sun_path).
	maxSocketPath = 104
	// closeTimeout bounds how long Close lets running backups finish.
	closeTimeout = 10 * time.Second
)

// Maintenance is the maintenance-mode switch the socket serves
// (app.Core).
type Maintenance interface {
	Maintenance() (bool, error)
	SetMaintenance(on bool) error
}

// Server is the control socket of a running server.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Listen serves the control socket at path: backup writes a consistent
// copy of the store (storage.DB.Backup), m is the maintenance switch. The
// caller holds the store's lock, so a socket file left at path is a
// crashed server's and is replaced.
func Listen(path string, backup func(io.Writer) (int64, error), m Maintenance, log *slog.Logger) (*Server, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("control socket path %s is too long (%d bytes, at most %d): choose a shorter data.dir", path, len(path), maxSocketPath)
	}
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		n, err := backup(w)
		if err != nil {
			log.Error("backup over the control socket failed", "bytes", n, "err", err)
			// Cut the connection without the closing chunk, so the
			// client cannot take a partial copy for a whole one.
			panic(http.ErrAbortHandler)
		}
		log.Info("backup sent", "bytes", n)
	})
	handleMaintenance(mux, m)
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, ln: ln}
	go func() {
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("control socket", "err", err)
		}
	}()
	return s, nil
}

// handleMaintenance serves the switch, for fleetd maintenance while serve
// holds the store.
func handleMaintenance(mux *http.ServeMux, m Maintenance) {
	answer := func(w http.ResponseWriter) {
		on, err := m.Maintenance()
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
		if err := m.SetMaintenance(on); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		answer(w)
	})
}

// Close lets running backups finish (bounded) and removes the socket file
// (the listener unlinks it on close).
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = errors.Join(err, s.srv.Close())
	}
	// Serve may not have taken the listener yet, and then Shutdown does
	// not close it; closing it twice only reports an error, ignored.
	s.ln.Close()
	return err
}

// removeStaleSocket deletes a socket file left by a server that crashed.
func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode().Type() != fs.ModeSocket:
		return fmt.Errorf("%s exists and is not a socket; move it away", path)
	}
	return os.Remove(path)
}
