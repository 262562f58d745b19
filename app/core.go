package app

import (
	"errors"
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/activity"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/app/throttle"
)

// Options configures the core. Zero values get sensible defaults in New.
type Options struct {
	Version    string
	SessionTTL time.Duration
	// BcryptCost trades login latency for resistance to offline guessing.
	BcryptCost int
	Throttle   throttle.Options
	Ingest     ingest.Options
	// CommandTypes maps each protocol name to the command types its
	// encoder supports (filled by the composition root from protocols/).
	CommandTypes map[string][]string
	// Accounts configures OTP delivery and account access (spec A, H);
	// Push the push notifications (spec K).
	Accounts accounts.Options
	Push     notify.PushOptions
	// Channels are the notification channels besides push and the web.
	Channels notify.Channels
	// Office configures uploads and document expiry.
	Office office.Options
	// Reports bound what one report may read.
	Reports fleet.ReportOptions
	// Servicing sets the service interval behind office.ServicesDue.
	Servicing office.ServiceOptions
	Now       func() time.Time
	Logger    *slog.Logger

	// Space watches the data directory's free space.
	Space ops.Options
}

// Core holds the rules of fleetd. Adapters (web, protocols, CLI) call it;
// it reaches the outside only through the interfaces it defines.
type Core struct {
	store model.Store
	now   func() time.Time
	log   *slog.Logger

	// Live fans stored positions and events out to subscribers.
	Live *live.Hub
	// Accounts keeps users, sessions, logins, one-time codes and the
	// server settings.
	Accounts *accounts.Service
	// Notify sends push notifications and keeps their settings.
	Notify *notify.Service
	// Office keeps tickets, documents, files, service records and payments.
	Office *office.Service

	// Ops watches free space and backups and alerts administrators.
	Ops *ops.Service
	// Activity keeps the audit log and the usage statistics.
	Activity *activity.Service
	// Ingest stores what devices send and keeps their state.
	Ingest *ingest.Service
	// Fleet keeps devices, groups, commands, geofences, drivers, computed
	// attributes, permissions and the history reads.
	Fleet *fleet.Service
}

// New builds the core on store.
func New(store model.Store, opts Options) *Core {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	c := &Core{now: opts.Now, log: opts.Logger}
	store = live.Track(store, c.now, c.changed)
	c.store = store
	c.Accounts = accounts.New(store, accounts.Config{Accounts: opts.Accounts, Throttle: opts.Throttle,
		BcryptCost: opts.BcryptCost, SessionTTL: opts.SessionTTL, Version: opts.Version}, c.now, c.log)
	c.Live = live.New(c.store, c.Accounts.LoginAllowed, c.now)
	c.Ops = ops.New(opts.Space, c.Accounts.MailAdmins, c.now)
	c.Accounts.ReportSpace(func() (uint64, uint64, error) {
		s, err := c.Ops.Space()
		return s.Free, s.Total, err
	})
	c.Office = office.New(store, opts.Office, opts.Servicing, c.Ops.RoomFor, c.now, c.log)
	c.Ingest = ingest.New(store, opts.Ingest, opts.CommandTypes, c.Live, c.now, c.log)
	c.Fleet = c.Ingest.Attach(func(h fleet.Hooks) *fleet.Service { return fleet.New(store, h, opts.Reports, c.now) }, c.Office.DropEntity)
	c.Notify = notify.New(store, opts.Push, opts.Channels, c.Live, c.now, c.log)
	c.Activity = activity.New(store, c.Live, func() activity.Counters {
		sent, _ := c.Notify.ChannelStats()
		s := c.Ingest.Stats()
		return activity.Counters{Stored: s.PositionsStored, Received: s.FramesReceived, MailSent: sent[model.NotifyMail],
			SMSSent: sent[model.NotifySMS]}
	}, c.now)
	c.Office.OnServiceRecorded(c.Fleet.ServiceRecorded)
	c.Accounts.OnUserDeleted(c.Office.DropUser)
	c.Accounts.OnUserDeleted(func(tx model.Tx, userID int64) (func(), error) {
		return func() {}, c.Notify.DropUser(tx, userID)
	})
	return c
}

// Store exposes the store to adapters that need raw access (backup).
func (c *Core) Store() model.Store { return c.store }

// Subscribe starts live updates for user, authenticated by the session
// with cookie value sessionToken ("" for Basic credentials).
func (c *Core) Subscribe(user *model.User, sessionToken string) *live.Subscription {
	key := ""
	if sessionToken != "" {
		key = accounts.SessionKey(sessionToken)
	}
	return c.Live.Subscribe(user, key)
}

// changed hears every committed change (live.Track): the hub checks its
// subscribers' access again, the ingest rereads the configuration of the
// devices it caches when what applies to them may have changed, and the
// notifier what notifications there are.
func (c *Core) changed(ch live.Changes) {
	c.Live.Changed(ch)
	c.Ingest.Changed(ch)
	c.Notify.Changed(ch)
}

// Health reports whether the store answers.
func (c *Core) Health() error {
	return c.store.View(func(tx model.Tx) error {
		_, err := tx.Server()
		if errors.Is(err, model.ErrNotFound) {
			return nil
		}
		return err
	})
}

// Stats are the ingest's counters with the accounts' password checks.
func (c *Core) Stats() ingest.Stats {
	s := c.Ingest.Stats()
	s.PasswordChecks = c.Accounts.PasswordChecks()
	return s
}
