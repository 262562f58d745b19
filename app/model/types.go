package model

import (
	"strings"
	"time"
)

// Attributes is the free-form map Traccar puts on most entities. It is never
// serialised as null: clients index into it without checking.
type Attributes map[string]any

// Entity is what every id-keyed record implements so one generic table in the
// store can assign ids from its bucket sequence.
type Entity interface {
	GetID() int64
	SetID(int64)
}

// Base is embedded in entities: it carries the id (promoted, so v.ID works)
// and gives them Entity's methods.
type Base struct {
	ID int64 `json:"id"`
}

func (b *Base) GetID() int64   { return b.ID }
func (b *Base) SetID(id int64) { b.ID = id }

// User follows Traccar's User model. Password is accepted on input only;
// PasswordHash is stored and never serialised.
type User struct {
	Base
	Name             string     `json:"name"`
	Login            string     `json:"login,omitempty"`
	Email            string     `json:"email"`
	Phone            string     `json:"phone"`
	Readonly         bool       `json:"readonly"`
	Administrator    bool       `json:"administrator"`
	Map              string     `json:"map"`
	Latitude         float64    `json:"latitude"`
	Longitude        float64    `json:"longitude"`
	Zoom             int        `json:"zoom"`
	Password         string     `json:"password,omitempty"`
	TwelveHourFormat bool       `json:"twelveHourFormat"`
	CoordinateFormat string     `json:"coordinateFormat"`
	Disabled         bool       `json:"disabled"`
	ExpirationTime   *time.Time `json:"expirationTime"`
	DeviceLimit      int        `json:"deviceLimit"`
	UserLimit        int        `json:"userLimit"`
	DeviceReadonly   bool       `json:"deviceReadonly"`
	LimitCommands    bool       `json:"limitCommands"`
	DisableReports   bool       `json:"disableReports"`
	FixedEmail       bool       `json:"fixedEmail"`
	PoiLayer         string     `json:"poiLayer"`
	// TotpKey, when set, makes every login need the code of an
	// authenticator app holding it (Traccar's totpKey).
	TotpKey    string     `json:"totpKey,omitempty"`
	Attributes Attributes `json:"attributes"`

	PasswordHash string `json:"-"`
}

// Manager reports Traccar's notion of a manager: a user allowed to create users.
func (u *User) Manager() bool { return u.UserLimit != 0 }

// Expired reports whether the account's expirationTime has passed.
func (u *User) Expired(now time.Time) bool {
	return u.ExpirationTime != nil && !u.ExpirationTime.IsZero() && now.After(*u.ExpirationTime)
}

// NormalizeEmail is the form e-mails are compared and indexed in.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Device status values (Traccar).
const (
	StatusOnline  = "online"
	StatusOffline = "offline"
	StatusUnknown = "unknown"
)

// Device follows Traccar's Device model.
type Device struct {
	Base
	Name           string     `json:"name"`
	UniqueID       string     `json:"uniqueId"`
	Status         string     `json:"status"`
	Disabled       bool       `json:"disabled"`
	LastUpdate     *time.Time `json:"lastUpdate"`
	PositionID     int64      `json:"positionId"`
	GroupID        int64      `json:"groupId"`
	CalendarID     int64      `json:"calendarId"`
	Phone          string     `json:"phone"`
	Model          string     `json:"model"`
	Contact        string     `json:"contact"`
	Category       string     `json:"category"`
	ExpirationTime *time.Time `json:"expirationTime"`
	Attributes     Attributes `json:"attributes"`
}

// Group follows Traccar's Group model; GroupID is the parent group.
type Group struct {
	Base
	Name       string     `json:"name"`
	GroupID    int64      `json:"groupId"`
	Attributes Attributes `json:"attributes"`
}

// Position follows Traccar's Position model. Speed is in knots, distances in meters.
type Position struct {
	Base
	DeviceID    int64      `json:"deviceId"`
	Protocol    string     `json:"protocol"`
	ServerTime  time.Time  `json:"serverTime"`
	DeviceTime  time.Time  `json:"deviceTime"`
	FixTime     time.Time  `json:"fixTime"`
	Outdated    bool       `json:"outdated"`
	Valid       bool       `json:"valid"`
	Latitude    float64    `json:"latitude"`
	Longitude   float64    `json:"longitude"`
	Altitude    float64    `json:"altitude"`
	Speed       float64    `json:"speed"`
	Course      float64    `json:"course"`
	Address     *string    `json:"address"`
	Accuracy    float64    `json:"accuracy"`
	Network     any        `json:"network"`
	GeofenceIDs []int64    `json:"geofenceIds"`
	Attributes  Attributes `json:"attributes"`
	// Media is a file the device sent with this position (a photo, a
	// voice message). It is not part of the record: the ingest stores it
	// beside the position, in the same transaction, and names it in the
	// attribute Media.Key, as Traccar does, for the media API.
	Media *Media `json:"-"`
}

// Media is a device's file on its way to the store.
type Media struct {
	Key  string // the position attribute that names it: MediaImage, MediaAudio or MediaVideo
	Ext  string // the file name's extension, like "jpg" or "amr"
	Type string // its content type, like "image/jpeg" or "audio/amr"
	Data []byte
}

// Traccar's position attributes that name a media file.
const (
	MediaImage = "image"
	MediaAudio = "audio"
	MediaVideo = "video"
)

// Event follows Traccar's Event model (the core form).
type Event struct {
	Base
	Type          string     `json:"type"`
	EventTime     time.Time  `json:"eventTime"`
	DeviceID      int64      `json:"deviceId"`
	PositionID    int64      `json:"positionId"`
	GeofenceID    int64      `json:"geofenceId"`
	MaintenanceID int64      `json:"maintenanceId"`
	Attributes    Attributes `json:"attributes"`
}

// Command follows Traccar's Command model: saved commands (B1..B4) and
// commands sent to devices (B6).
type Command struct {
	Base
	DeviceID    int64      `json:"deviceId"`
	Description string     `json:"description"`
	Type        string     `json:"type"`
	TextChannel bool       `json:"textChannel"`
	Attributes  Attributes `json:"attributes"`
}

// ComputedAttribute follows Traccar's Attribute model
// (/api/attributes/computed): an expression over a position whose result
// the ingest stores as the position attribute named Attribute, for every
// device the attribute is linked to directly or through its groups.
type ComputedAttribute struct {
	Base
	Description string `json:"description"`
	Attribute   string `json:"attribute"`
	Expression  string `json:"expression"`
	// Type is what the result is converted to: string, number or boolean.
	Type string `json:"type"`
	// Priority orders evaluation: higher first, so later (lower) ones can
	// read what earlier ones computed.
	Priority int `json:"priority"`
}

// Result types of computed attributes.
const (
	ComputedString  = "string"
	ComputedNumber  = "number"
	ComputedBoolean = "boolean"
)

// Event types (Traccar's names).
const (
	EventDeviceOnline      = "deviceOnline"
	EventDeviceOffline     = "deviceOffline"
	EventDeviceUnknown     = "deviceUnknown"
	EventDeviceMoving      = "deviceMoving"
	EventDeviceStopped     = "deviceStopped"
	EventDeviceOverspeed   = "deviceOverspeed"
	EventIgnitionOn        = "ignitionOn"
	EventIgnitionOff       = "ignitionOff"
	EventAlarm             = "alarm"
	EventGeofenceEnter     = "geofenceEnter"
	EventGeofenceExit      = "geofenceExit"
	EventCommandResult     = "commandResult"
	EventQueuedCommandSent = "queuedCommandSent"
	EventMaintenance       = "maintenance"
	EventDriverChanged     = "driverChanged"
	EventFuelDrop          = "deviceFuelDrop"
	EventFuelIncrease      = "deviceFuelIncrease"
)

// EventTypes are the event types fleetd produces, the types a
// notification may be for (Traccar's /api/notifications/types).
var EventTypes = []string{EventDeviceOnline, EventDeviceOffline, EventDeviceUnknown, EventDeviceMoving, EventDeviceStopped,
	EventDeviceOverspeed, EventFuelDrop, EventFuelIncrease, EventIgnitionOn, EventIgnitionOff, EventAlarm, EventGeofenceEnter,
	EventGeofenceExit, EventMaintenance, EventDriverChanged, EventCommandResult, EventQueuedCommandSent}

// Report follows Traccar's Report: a report of type (route, events, trips,
// stops, summary) run for each period of its calendar that ends, over the
// devices and groups linked to it, and mailed to its users.
type Report struct {
	Base
	Type        string     `json:"type"`
	Description string     `json:"description"`
	CalendarID  int64      `json:"calendarId"`
	Attributes  Attributes `json:"attributes"`
}

// Notification channels (Traccar's notificator names; firebase is push to
// the user's phones).
const (
	NotifyWeb      = "web"
	NotifyMail     = "mail"
	NotifySMS      = "sms"
	NotifyPush     = "firebase"
	NotifyTelegram = "telegram"
	NotifyWebhook  = "webhook"
)

// Notificators are the channel names a notification may use.
var Notificators = []string{NotifyWeb, NotifyMail, NotifySMS, NotifyPush, NotifyTelegram, NotifyWebhook}

// Notification follows Traccar's Notification model: which users are told
// of an event type, and how (notificators: comma-separated channel
// names). It applies to the devices and groups linked to it, or with
// always to every device its users see. Attributes may narrow it:
// "alarms" (comma-separated alarm kinds, required for alarm
// notifications) and "geofenceIds" (comma-separated ids).
type Notification struct {
	Base
	Type         string     `json:"type"`
	Description  string     `json:"description"`
	Always       bool       `json:"always"`
	CommandID    int64      `json:"commandId"`
	Notificators string     `json:"notificators"`
	CalendarID   int64      `json:"calendarId"`
	Attributes   Attributes `json:"attributes"`
}

// QueuedCommand is a command waiting for its device to connect.
type QueuedCommand struct {
	Command
	Queued time.Time `json:"queued"`
}

// Geofence follows Traccar's Geofence model; Area is WKT.
type Geofence struct {
	Base
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Area        string     `json:"area"`
	CalendarID  int64      `json:"calendarId"`
	Attributes  Attributes `json:"attributes"`
}

// Driver follows Traccar's Driver model: a person identified by uniqueId
// (an RFID tag or iButton the device reports as driverUniqueId).
type Driver struct {
	Base
	Name       string     `json:"name"`
	UniqueID   string     `json:"uniqueId"`
	Attributes Attributes `json:"attributes"`
}

// Calendar follows Traccar's Calendar model: an iCalendar document (data,
// base64 in JSON as Traccar's byte[] is) whose events are the times
// notifications and geofences linked to it are active.
type Calendar struct {
	Base
	Name       string     `json:"name"`
	Data       []byte     `json:"data"`
	Attributes Attributes `json:"attributes"`
}

// Maintenance follows Traccar's Maintenance model: a reminder every period
// of a position value (type: an attribute such as totalDistance or hours,
// or fixTime), counted from start.
type Maintenance struct {
	Base
	Name       string     `json:"name"`
	Type       string     `json:"type"`
	Start      float64    `json:"start"`
	Period     float64    `json:"period"`
	Attributes Attributes `json:"attributes"`
}

// Server follows Traccar's Server model: the server-wide settings singleton.
type Server struct {
	Base
	Registration     bool    `json:"registration"`
	Readonly         bool    `json:"readonly"`
	DeviceReadonly   bool    `json:"deviceReadonly"`
	LimitCommands    bool    `json:"limitCommands"`
	Map              string  `json:"map"`
	BingKey          string  `json:"bingKey"`
	MapURL           string  `json:"mapUrl"`
	OverlayURL       string  `json:"overlayUrl"`
	PoiLayer         string  `json:"poiLayer"`
	Latitude         float64 `json:"latitude"`
	Longitude        float64 `json:"longitude"`
	Zoom             int     `json:"zoom"`
	TwelveHourFormat bool    `json:"twelveHourFormat"`
	Version          string  `json:"version"`
	ForceSettings    bool    `json:"forceSettings"`
	CoordinateFormat string  `json:"coordinateFormat"`
	OpenIDEnabled    bool    `json:"openIdEnabled"`
	OpenIDForce      bool    `json:"openIdForce"`
	Announcement     string  `json:"announcement"`
	FixedEmail       bool    `json:"fixedEmail"`
	DisableReports   bool    `json:"disableReports"`
	EmailEnabled     bool    `json:"emailEnabled"`
	GeocoderEnabled  bool    `json:"geocoderEnabled"`
	TextEnabled      bool    `json:"textEnabled"`
	NewServer        bool    `json:"newServer"`
	// StorageSpace is the data directory's file system, [usable, total]
	// bytes, shown to administrators only (Traccar's storageSpace).
	StorageSpace []uint64   `json:"storageSpace,omitempty"`
	Attributes   Attributes `json:"attributes"`
}

// Session is a login session, identified by the JSESSIONID cookie value.
type Session struct {
	Token   string    `json:"token"`
	UserID  int64     `json:"userId"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// Permission links an owner object to a property object, as Traccar's
// /api/permissions does with a pair of "<kind>Id" keys.
type Permission struct {
	OwnerKind string
	OwnerID   int64
	PropKind  string
	PropID    int64
}

// Object kinds used in permissions, named like Traccar's "<kind>Id" JSON keys.
const (
	KindUser         = "user"
	KindDevice       = "device"
	KindGroup        = "group"
	KindGeofence     = "geofence"
	KindCommand      = "command"
	KindManagedUser  = "managedUser"
	KindNotification = "notification"
	KindCalendar     = "calendar"
	KindAttribute    = "attribute"
	KindDriver       = "driver"
	KindMaintenance  = "maintenance"
	KindReport       = "report"
)

// System is the actor for operator actions from the CLI and start-up: an
// administrator that is not a stored user.
func System() *User { return &User{Name: "system", Administrator: true} }

// EarliestFix: GPS fixes before this are a device's reset clock, not data.
var EarliestFix = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// AuditEntry follows Traccar's Action: one change a user made (or a
// login), for administrators' audit log. Address is the client's, when
// the change came with one.
type AuditEntry struct {
	ID         int64     `json:"id"`
	ActionTime time.Time `json:"actionTime"`
	Address    string    `json:"address"`
	UserID     int64     `json:"userId"`
	ActionType string    `json:"actionType"`
	ObjectType string    `json:"objectType"`
	ObjectID   int64     `json:"objectId"`
	// UserEmail is filled in for reading, as Traccar's AuditResource does.
	UserEmail string `json:"userEmail,omitempty"`
}

// Statistics follows Traccar's Statistics: one day's use of the server
// (captureTime its start, UTC), for administrators.
type Statistics struct {
	CaptureTime         time.Time      `json:"captureTime"`
	ActiveUsers         int            `json:"activeUsers"`
	ActiveDevices       int            `json:"activeDevices"`
	Requests            int            `json:"requests"`
	MessagesReceived    int            `json:"messagesReceived"`
	MessagesStored      int            `json:"messagesStored"`
	MailSent            int            `json:"mailSent"`
	SMSSent             int            `json:"smsSent"`
	GeocoderRequests    int            `json:"geocoderRequests"`
	GeolocationRequests int            `json:"geolocationRequests"`
	Protocols           map[string]int `json:"protocols"`
	Attributes          Attributes     `json:"attributes"`
}

// Audit action types (Traccar's).
const (
	ActionCreate = "create"
	ActionEdit   = "edit"
	ActionRemove = "remove"
	ActionLink   = "link"
	ActionUnlink = "unlink"
	ActionLogin  = "login"
)
