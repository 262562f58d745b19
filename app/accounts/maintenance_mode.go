package accounts

import "github.com/fleetd/fleetd/app/model"

// Maintenance reports whether the server is in maintenance mode: the
// stored switch, or config server.maintenance. Account access (spec A)
// then answers "Server not running!".
func (acc *Service) Maintenance() (bool, error) {
	if acc.opts.Maintenance {
		return true, nil
	}
	var on bool
	err := acc.store.View(func(tx model.Tx) (err error) { on, err = tx.Accounts().Maintenance(); return err })
	return on, err
}

// SetMaintenance stores the switch (operators: fleetd maintenance on|off),
// so it survives restarts and the CLI can set it while serve is stopped.
func (acc *Service) SetMaintenance(on bool) error {
	return acc.store.Update(func(tx model.Tx) error { return tx.Accounts().SetMaintenance(on) })
}

// Running answers ErrServerNotRunning in maintenance mode.
func (acc *Service) Running() error {
	on, err := acc.Maintenance()
	if err == nil && on {
		err = ErrServerNotRunning
	}
	return err
}
