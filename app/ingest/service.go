// Package ingest is the device side of the core: it identifies devices
// for the listeners, stores their positions with the events they cause
// (ACK only once durable), keeps each device's state (status, latest
// position, the geofences and computed attributes that apply to it)
// between frames, sends devices commands, and prunes history past its
// retention.
package ingest

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
)

// Service is the ingest.
type Service struct {
	store        model.Store
	opts         Options
	commandTypes map[string][]string
	now          func() time.Time
	log          *slog.Logger
	hub          *live.Hub
	fleet        *fleet.Service
	// registrations counts auto-registered devices per client address.
	registrations *throttle.Limiter
	unknown       unknownList
	// inbox keeps the frames the listeners could not use; frames counts
	// every frame by protocol (*atomic.Uint64 by name).
	inbox    *inbox.Inbox
	frames   sync.Map
	counters counters
	shapes   sync.Map // geofence area -> geo.Shape
	states   sync.Map // device id -> *deviceState (state.go)
	queue    queueIndex
	connsMu  sync.Mutex
	conns    map[int64]DeviceConn
	// configGen is bumped when devices, groups, geofences, computed
	// attributes or links change: a cached state then rereads what
	// applies to its device.
	configGen    atomic.Uint64
	computedErrs sync.Map // failures already logged
	// ingestFails and statusFails condense the log of failed ingest calls
	// and device status writes.
	ingestFails, statusFails *failureLog
}

// New builds the ingest; it publishes what it stores on hub.
// commandTypes maps each protocol to the command types its encoder
// supports.
func New(store model.Store, opts Options, commandTypes map[string][]string, hub *live.Hub,
	now func() time.Time, log *slog.Logger) *Service {
	if opts.FutureLimit <= 0 {
		opts.FutureLimit = 24 * time.Hour
	}
	if opts.MotionSpeed <= 0 {
		opts.MotionSpeed = 0.01
	}
	model.SetDefault(&opts.AutoRegisterPerHour, 100)
	ig := &Service{store: store, opts: opts, commandTypes: commandTypes, now: now, log: log, hub: hub,
		conns: map[int64]DeviceConn{}, ingestFails: newIngestFailures(), statusFails: newStatusFailures(),
		registrations: throttle.New(throttle.Options{MaxPerIP: opts.AutoRegisterPerHour, Window: time.Hour}, now, ErrUnknownDevice)}
	ig.unknown.m = map[string]*UnknownDevice{}
	ig.inbox = inbox.New(opts.Inbox, now)
	return ig
}

// Changed hears every committed change (live.Track): when what applies to
// devices may have changed, the cached states reread it.
func (ig *Service) Changed(ch live.Changes) {
	if ch.Any(model.KindDevice, model.KindGroup, model.KindGeofence, model.KindAttribute, model.KindCalendar,
		model.KindMaintenance, live.ChangedPermissions, live.ChangedServer) {
		ig.configGen.Add(1)
	}
}

// Attach gives the ingest the fleet it registers unknown devices in and
// reads saved commands from, and returns the hooks the fleet calls about
// its devices: the two know each other, so one is built before the other.
// dropEntity removes the office's records of a deleted vehicle or driver.
func (ig *Service) Attach(build func(fleet.Hooks) *fleet.Service, dropEntity func(tx model.Tx, of string, id int64) (func(), error)) *fleet.Service {
	ig.fleet = build(fleet.Hooks{View: ig.liveDevice, Registered: ig.registered, Removed: ig.deviceRemoved,
		HistoryChanged: ig.forgetState, DropEntity: dropEntity})
	return ig.fleet
}

// registered: d's uniqueId is no longer an unknown device's.
func (ig *Service) registered(d *model.Device) {
	ig.unknown.forget(d.UniqueID)
	ig.inbox.Forget(0, d.UniqueID)
}

// deviceRemoved: a device's deletion committed.
func (ig *Service) deviceRemoved(deviceID int64) {
	ig.states.Delete(deviceID)
	ig.inbox.Forget(deviceID, "")
}
