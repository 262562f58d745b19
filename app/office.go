package app

import (
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Office keeps the fleet office: support tickets and their responses,
// vehicle and driver documents, uploaded files, service records and tasks,
// and payments. Its records belong to one user each.
type Office struct {
	store model.Store
	opts  OfficeOptions
	maint MaintenanceOptions
	now   func() time.Time
	log   *slog.Logger
	// run tags this run's temporary files (files_sweep.go).
	run string
	// roomFor refuses an upload the disk has no room for.
	roomFor func(size int64) error
}
