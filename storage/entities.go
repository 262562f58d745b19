package storage

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// One spec per entity bucket; tx binds them to a transaction.
var (
	usersSpec = storedAs(tableSpec[model.User]{
		bucket: bucketUsers,
		what:   "user",
		index: &uniqueIndex[model.User]{
			bucket:    bucketUserEmails,
			field:     "email",
			value:     func(u *model.User) string { return u.Email },
			normalize: model.NormalizeEmail,
		},
	}, storeUser, loadUser)
	devicesSpec = tableSpec[model.Device]{
		bucket: bucketDevices,
		what:   "device",
		index: &uniqueIndex[model.Device]{
			bucket:    bucketDeviceUIDs,
			field:     "uniqueId",
			value:     func(d *model.Device) string { return d.UniqueID },
			normalize: strings.TrimSpace,
			required:  true,
		},
	}
	groupsSpec    = tableSpec[model.Group]{bucket: bucketGroups, what: "group"}
	commandsSpec  = tableSpec[model.Command]{bucket: bucketCommands, what: "command"}
	geofencesSpec = tableSpec[model.Geofence]{bucket: bucketGeofences, what: "geofence"}
	queueSpec     = tableSpec[model.QueuedCommand]{bucket: bucketQueue, what: "queued command"}
	// Drivers and computed attributes are registered collections
	// (collections.go). A driver's uniqueId is unique like a device's, kept
	// in the drivers' key set (the one the fleet kept before, same keys:
	// the trimmed uniqueId); an empty one is not indexed.
	driversSpec = tableSpec[model.Driver]{
		bucket: colDrivers.bucket(),
		what:   colDrivers.what,
		index: &uniqueIndex[model.Driver]{
			bucket:    keySetBucket(colDrivers.keys[0]),
			field:     "uniqueId",
			value:     func(d *model.Driver) string { return d.UniqueID },
			normalize: strings.TrimSpace,
		},
	}
	computedSpec     = tableSpec[model.ComputedAttribute]{bucket: colComputed.bucket(), what: colComputed.what}
	calendarsSpec    = tableSpec[model.Calendar]{bucket: colCalendars.bucket(), what: colCalendars.what}
	maintenanceSpec  = tableSpec[model.Maintenance]{bucket: colMaintenances.bucket(), what: colMaintenances.what}
	notificationSpec = tableSpec[model.Notification]{bucket: colNotifications.bucket(), what: colNotifications.what}
	reportSpec       = tableSpec[model.Report]{bucket: colReports.bucket(), what: colReports.what}
)

// storedUser is a user as stored: the fields model.User had when users
// were first written, with passwordHash, which the API never shows, and
// without the plaintext password, which is input only.
type storedUser struct {
	ID               int64          `json:"id"`
	Name             string         `json:"name"`
	Login            string         `json:"login,omitempty"`
	Email            string         `json:"email"`
	Phone            string         `json:"phone"`
	Readonly         bool           `json:"readonly"`
	Administrator    bool           `json:"administrator"`
	Map              string         `json:"map"`
	Latitude         float64        `json:"latitude"`
	Longitude        float64        `json:"longitude"`
	Zoom             int            `json:"zoom"`
	TwelveHourFormat bool           `json:"twelveHourFormat"`
	CoordinateFormat string         `json:"coordinateFormat"`
	Disabled         bool           `json:"disabled"`
	ExpirationTime   *time.Time     `json:"expirationTime"`
	DeviceLimit      int            `json:"deviceLimit"`
	UserLimit        int            `json:"userLimit"`
	DeviceReadonly   bool           `json:"deviceReadonly"`
	LimitCommands    bool           `json:"limitCommands"`
	DisableReports   bool           `json:"disableReports"`
	FixedEmail       bool           `json:"fixedEmail"`
	PoiLayer         string         `json:"poiLayer"`
	Attributes       map[string]any `json:"attributes"`
	PasswordHash     string         `json:"passwordHash"`
	TotpKey          string         `json:"totpKey,omitempty"`
}

func storeUser(u *model.User) storedUser {
	return storedUser{ID: u.ID, Name: u.Name, Login: u.Login, Email: u.Email, Phone: u.Phone,
		Readonly: u.Readonly, Administrator: u.Administrator, Map: u.Map, Latitude: u.Latitude,
		Longitude: u.Longitude, Zoom: u.Zoom, TwelveHourFormat: u.TwelveHourFormat,
		CoordinateFormat: u.CoordinateFormat, Disabled: u.Disabled, ExpirationTime: u.ExpirationTime,
		DeviceLimit: u.DeviceLimit, UserLimit: u.UserLimit, DeviceReadonly: u.DeviceReadonly,
		LimitCommands: u.LimitCommands, DisableReports: u.DisableReports, FixedEmail: u.FixedEmail,
		PoiLayer: u.PoiLayer, Attributes: u.Attributes, PasswordHash: u.PasswordHash, TotpKey: u.TotpKey}
}

func loadUser(s *storedUser) model.User {
	return model.User{Base: model.Base{ID: s.ID}, Name: s.Name, Login: s.Login, Email: s.Email, Phone: s.Phone,
		Readonly: s.Readonly, Administrator: s.Administrator, Map: s.Map, Latitude: s.Latitude,
		Longitude: s.Longitude, Zoom: s.Zoom, TwelveHourFormat: s.TwelveHourFormat,
		CoordinateFormat: s.CoordinateFormat, Disabled: s.Disabled, ExpirationTime: s.ExpirationTime,
		DeviceLimit: s.DeviceLimit, UserLimit: s.UserLimit, DeviceReadonly: s.DeviceReadonly,
		LimitCommands: s.LimitCommands, DisableReports: s.DisableReports, FixedEmail: s.FixedEmail,
		PoiLayer: s.PoiLayer, Attributes: s.Attributes, PasswordHash: s.PasswordHash, TotpKey: s.TotpKey}
}
