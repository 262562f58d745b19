// Package admin carries out fleetd's administration commands and says
// what they did: users (add, passwd, list), maintenance mode, backup,
// restore, rollback and the import from Traccar. They work on the store
// while fleetd serve is stopped; backup and maintenance go through serve's
// control socket while it holds the store. main's command tree calls them.
package admin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web/control"
)

// lockTimeout is how long a command waits for the store's lock before
// concluding that fleetd serve holds it.
const lockTimeout = 300 * time.Millisecond

// Commands run on the data directory of one configuration.
type Commands struct {
	Config *config.Config
	In     io.Reader // passwords not given as flags
	Out    io.Writer
	Err    io.Writer // progress (fleetd import); nil: none
	// NewCore makes a core over the store a command opened.
	NewCore func(*storage.DB) *app.Core
}

// storeUse says how a command opens the store.
type storeUse int

const (
	readStore   storeUse = iota // shared lock, no changes
	writeStore                  // the store must exist
	createStore                 // a missing store is created
)

// withCore opens the store and runs fn on a core over it.
func (a *Commands) withCore(use storeUse, fn func(*app.Core) error) error {
	path := a.Config.Data.StorePath()
	if use == writeStore {
		if _, err := os.Stat(path); err != nil {
			return storage.Advise(err, path, a.Config.Data.Dir)
		}
	}
	db, err := storage.Open(path, storage.Options{Timeout: lockTimeout, ReadOnly: use == readStore})
	if err != nil {
		return storage.Advise(err, path, a.Config.Data.Dir)
	}
	defer db.Close()
	return fn(a.NewCore(db))
}

// remote is the control socket of the serve holding the store.
func (a *Commands) remote() control.Client { return control.Client{Socket: a.Config.Data.SocketPath()} }

// password is the flag's value, or else one line read from In, so a
// password need not appear in the process list or the shell history.
func (a *Commands) password(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	line, err := bufio.NewReader(a.In).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if line = strings.TrimRight(line, "\r\n"); line == "" {
		return "", errors.New("no password: give --password or write it as one line on stdin")
	}
	return line, nil
}

// Maintenance applies action (on, off or status) to maintenance mode, in
// the store or through the control socket while serve holds it.
func (a *Commands) Maintenance(ctx context.Context, action string) error {
	var on bool
	where := "store " + a.Config.Data.StorePath()
	err := a.withCore(map[bool]storeUse{true: readStore, false: writeStore}[action == "status"], func(core *app.Core) (err error) {
		if action != "status" {
			if err = core.Accounts.SetMaintenance(action == "on"); err != nil {
				return err
			}
		}
		on, err = core.Accounts.Maintenance()
		return err
	})
	if errors.Is(err, storage.ErrLocked) {
		where = "running server"
		on, err = a.remote().Maintenance(ctx, action)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "maintenance mode %s (%s)\n", map[bool]string{true: "on", false: "off"}[on], where)
	if a.Config.Server.Maintenance && !on {
		fmt.Fprintln(a.Out, "note: server.maintenance in the config forces it on while serve runs")
	}
	return nil
}
