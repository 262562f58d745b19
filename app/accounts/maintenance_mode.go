package accounts

import (
	"encoding/json"

	"github.com/fleetd/fleetd/app/model"
)

// The maintenance switch is one record in the "serverState" collection,
// so it survives restarts and the CLI can set it while serve is stopped.
const (
	stateRecords = "serverState"
	stateID      = 1
)

type serverState struct {
	Maintenance bool `json:"maintenance"`
}

// Maintenance reports whether the server is in maintenance mode: the
// stored switch, or config server.maintenance. Account access (spec A)
// then answers "Server not running!".
func (acc *Service) Maintenance() (bool, error) {
	if acc.opts.Maintenance {
		return true, nil
	}
	var st serverState
	err := acc.store.View(func(tx model.Tx) error {
		data, ok, err := tx.Records(stateRecords).Get(stateID)
		if err != nil || !ok {
			return err
		}
		return json.Unmarshal(data, &st)
	})
	return st.Maintenance, err
}

// SetMaintenance stores the switch (operators: fleetd maintenance on|off).
func (acc *Service) SetMaintenance(on bool) error {
	data, err := json.Marshal(serverState{Maintenance: on})
	if err != nil {
		return err
	}
	return acc.store.Update(func(tx model.Tx) error { return tx.Records(stateRecords).Put(stateID, data) })
}

// Running answers ErrServerNotRunning in maintenance mode.
func (acc *Service) Running() error {
	on, err := acc.Maintenance()
	if err == nil && on {
		err = ErrServerNotRunning
	}
	return err
}
