package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Advise explains to an operator at the command line the ways opening the
// store at path (in the data directory dir) commonly fails, and what to do
// about a store fleetd cannot use; the advice wraps err. Other errors pass
// as they are.
func Advise(err error, path, dir string) error {
	switch {
	case errors.Is(err, ErrLocked):
		return &advice{fmt.Sprintf("the store %s is in use by a running fleetd serve: stop fleetd serve or "+
			"use the web UI / API instead (backups work while it runs: fleetd backup FILE)", path), err}
	case errors.Is(err, fs.ErrNotExist):
		return &advice{fmt.Sprintf("no store at %s yet (data.dir %q): start fleetd serve once or add a user with fleetd user add", path, dir), err}
	case errors.Is(err, ErrDamaged):
		return fmt.Errorf("%w\nfleetd cannot use this store: restore it from a backup with fleetd restore FILE (%s)", err, safetyCopies(path, dir))
	case errors.Is(err, ErrNewerSchema):
		return fmt.Errorf("%w\nrun the newer fleetd, or restore a store this one can read with fleetd restore FILE (%s)", err, safetyCopies(path, dir))
	}
	return err
}

// safetyCopies names the copies fleetd keeps next to the store,
// candidates for fleetd restore.
func safetyCopies(path, dir string) string {
	copies := SafetyCopies(path)
	if len(copies) == 0 {
		return "fleetd keeps no copy of it in " + dir
	}
	return "copies fleetd kept: " + strings.Join(copies, ", ")
}

// advice is an error told in its own words, err being the cause.
type advice struct {
	text string
	err  error
}

func (a *advice) Error() string { return a.text }
func (a *advice) Unwrap() error { return a.err }
