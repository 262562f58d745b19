// Package office keeps the fleet office: support tickets and their
// responses, vehicle and driver documents, uploaded files, service records
// and tasks, maintenance due, and payments. Its records belong to one user
// each, kept in cabinets indexed by owner (filing.go), and are reached by
// two paths (reach.go): the owner path for /api2, the administrative path
// (Admin) for the dashboard.
package office

import (
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Service keeps the fleet office: support tickets and their responses,
// vehicle and driver documents, uploaded files, service records and tasks,
// and payments. Its records belong to one user each.
type Service struct {
	store model.Store
	opts  Options
	maint ServiceOptions
	now   func() time.Time
	log   *slog.Logger
	// run tags this run's temporary files (files_sweep.go).
	run string
	// roomFor refuses an upload the disk has no room for.
	roomFor func(size int64) error
	// serviced hear each service record saved, in its transaction.
	serviced []func(tx model.Tx, r *model.ServiceRecord) error
}

// OnServiceRecorded registers what another area does when a service is
// recorded or changed, in the record's own transaction (the fleet
// restarts the vehicle's maintenance reminders the record names).
func (svc *Service) OnServiceRecorded(fn func(tx model.Tx, r *model.ServiceRecord) error) {
	svc.serviced = append(svc.serviced, fn)
}

func (svc *Service) recorded(tx model.Tx, r *model.ServiceRecord) error {
	for _, fn := range svc.serviced {
		if err := fn(tx, r); err != nil {
			return err
		}
	}
	return nil
}

// New builds the office on store; roomFor is the core's disk-space
// check, asked before an upload is written.
func New(store model.Store, opts Options, maint ServiceOptions, roomFor func(size int64) error,
	now func() time.Time, log *slog.Logger) *Service {
	return &Service{store: store, opts: opts, maint: maint, now: now, log: log, run: newRunTag(), roomFor: roomFor}
}
