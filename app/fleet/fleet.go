// Package fleet keeps the fleet's objects as Traccar has them (devices,
// groups, saved commands, geofences, drivers, computed attributes,
// calendars, maintenance reminders) with
// their permissions and lists (Objects, one implementation for every
// kind), the installation records of devices registered through the
// extended API, and the reads of what devices reported: position history,
// events and alarm analytics.
package fleet

import (
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Service is the fleet.
type Service struct {
	store   model.Store
	now     func() time.Time
	hooks   Hooks
	reports ReportOptions

	Devices   *Objects[model.Device, *model.Device]
	Groups    *Objects[model.Group, *model.Group]
	Commands  *Objects[model.Command, *model.Command]
	Geofences *Objects[model.Geofence, *model.Geofence]
	Drivers   *Objects[model.Driver, *model.Driver]
	// ComputedAttributes are Traccar's /api/attributes/computed.
	ComputedAttributes *Objects[model.ComputedAttribute, *model.ComputedAttribute]
	// Calendars and Maintenances are Traccar's /api/calendars and
	// /api/maintenance.
	Calendars    *Objects[model.Calendar, *model.Calendar]
	Maintenances *Objects[model.Maintenance, *model.Maintenance]
	// Notifications are Traccar's /api/notifications.
	Notifications *Objects[model.Notification, *model.Notification]
	// Reports are Traccar's scheduled reports, /api/reports.
	Reports *Objects[model.Report, *model.Report]
}

// Hooks are what the fleet tells, or asks of, the areas that keep
// state about its devices.
type Hooks struct {
	// View completes a device read from the store with the ingest's live
	// status, positionId and lastUpdate.
	View func(*model.Device)
	// Registered: a device was created or changed (its uniqueId is no
	// longer an unknown device's).
	Registered func(*model.Device)
	// Removed: a device's deletion committed; HistoryChanged: some of its
	// positions were deleted.
	Removed, HistoryChanged func(deviceID int64)
	// DropEntity removes, in the deletion's transaction, the records other
	// areas keep about a device or driver ("vehicle" or "driver"); the
	// function it returns runs once the deletion committed.
	DropEntity func(tx model.Tx, of string, id int64) (func(), error)
}

// New builds the fleet on store.
func New(store model.Store, hooks Hooks, reports ReportOptions, now func() time.Time) *Service {
	model.SetDefault(&reports.MaxPositions, DefaultMaxPositions)
	if reports.Log == nil {
		reports.Log = slog.Default()
	}
	fl := &Service{store: store, now: now, hooks: hooks, reports: reports}
	fl.Devices = newDevices(fl)
	fl.Groups = newGroups(fl)
	fl.Commands = newCommands(fl)
	fl.Geofences = newGeofences(fl)
	fl.Drivers = newDrivers(fl)
	fl.ComputedAttributes = newComputedAttributes(fl)
	fl.Calendars = newCalendars(fl)
	fl.Maintenances = newMaintenances(fl)
	fl.Notifications = newNotifications(fl)
	fl.Reports = newReports(fl)
	return fl
}
