package config

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
)

// EnvPrefix starts every environment variable fleetd reads.
const EnvPrefix = "FLEETD_"

// EnvConfigFile names the config file when --config is not given. It is not
// a config key.
const EnvConfigFile = EnvPrefix + "CONFIG"

// Key is one configuration key of the registry.
type Key struct {
	// Name is the dotted, camelCase path in the YAML file ("web.sessionTtl").
	Name string
	// Default is the value as written in YAML.
	Default any
	// Secret keys are printed as "***".
	Secret bool
	// Doc is a one-line description.
	Doc string

	set func(c *Config, raw any) error
	get func(c *Config) any
}

// EnvVar is the variable that overrides the key: FLEETD_ + the name
// upper-cased with "." replaced by "_" (web.sessionTtl: FLEETD_WEB_SESSIONTTL).
func (k Key) EnvVar() string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(k.Name, ".", "_"))
}

// Redacted is what secret values print as.
const Redacted = "***"

// Registry is the configuration keys of one fleetd build, in
// documentation order: the fixed ones, and two per device protocol.
type Registry struct {
	keys []Key
}

// DeviceDefaults is what the registry needs to know of the device
// listeners, which it does not import: main passes it in.
type DeviceDefaults struct {
	// Protocols are the protocols fleetd ships, in the order of their keys.
	Protocols []ProtocolDefault
	// FrameTimeout and FrameBudget are the listeners' own defaults.
	FrameTimeout time.Duration
	FrameBudget  int
}

// ProtocolDefault is one device protocol and its default port (Traccar's,
// so devices set up for Traccar need no change).
type ProtocolDefault struct {
	Name string
	Port int
	// Doc describes the listener, where "Listen for <name> devices." would
	// not (the shared port).
	Doc string
}

// NewRegistry returns the registry of a build with the device listeners
// of d.
func NewRegistry(d DeviceDefaults) *Registry {
	return &Registry{keys: slices.Concat(coreKeys, webLimitsKeys(), tlsKeys(), webMapKeys(), deviceLimitKeys(d), accountKeys(), officeKeys(),
		operationsKeys(), storeKeys(), backupKeys(), reportsKeys(), notifyKeys(), protocolKeys(d.Protocols))}
}

// Keys returns the registry in documentation order.
func (r *Registry) Keys() []Key { return slices.Clone(r.keys) }

// coreKeys are the first keys: where the data is, the web server's address
// and sessions, the first administrator, the log, devices and logins.
var coreKeys = []Key{
	field("data.dir", "./data", "Directory for the store (fleetd.db) and the control socket (fleetd.sock).",
		parseNonEmpty, func(c *Config) *string { return &c.Data.Dir }, asIs[string]),
	field("web.address", ":8082", "Listen address of the HTTP API (host:port; port 0 picks a free one).",
		parseAddress, func(c *Config) *string { return &c.Web.Address }, asIs[string]),
	field("web.secureCookies", false, "Mark session cookies Secure; turn on behind an HTTPS reverse proxy (with web.tls they always are).",
		parseBool, func(c *Config) *bool { return &c.Web.SecureCookies }, asIs[bool]),
	field("web.sessionTtl", 720*time.Hour, "How long a login session lasts.",
		parseDurationAtLeast(time.Minute), func(c *Config) *time.Duration { return &c.Web.SessionTTL }, formatDuration),
	field("web.url", "", "The address users open fleetd at (like https://fleet.example.com), for links in mails (password reset); empty: no links are mailed.",
		parseURLOrEmpty, func(c *Config) *string { return &c.Web.URL }, asIs[string]),
	field("web.trustedProxies", []string{}, "Reverse proxies (IP addresses or CIDR ranges, comma-separated) whose web.proxyHeader names the client; empty: the connection's peer is the client.",
		parseProxies, func(c *Config) *[]string { return &c.Web.TrustedProxies }, joinComma),
	field("web.proxyHeader", "X-Real-IP", "Header a trusted proxy puts the client's address in; the proxy must set it, not pass on the client's.",
		parseProxyHeader, func(c *Config) *string { return &c.Web.ProxyHeader }, asIs[string]),
	field("admin.email", "", "E-mail of the administrator created on first start (empty: admin@localhost.localdomain).",
		parseEmail, func(c *Config) *string { return &c.Admin.Email }, asIs[string]),
	secret(field("admin.password", "", "Password of that administrator (empty: generated and logged once at first start).",
		parseString, func(c *Config) *string { return &c.Admin.Password }, asIs[string])),
	field("log.level", slog.LevelInfo, "Log level: debug, info, warn or error.",
		parseLevel, func(c *Config) *slog.Level { return &c.Log.Level }, formatLevel),
	field("log.format", "text", "Log format: text or json.",
		parseOneOf("text", "json"), func(c *Config) *string { return &c.Log.Format }, asIs[string]),
	field("devices.autoRegister", false, "Create a device automatically when an unknown one reports.",
		parseBool, func(c *Config) *bool { return &c.Devices.AutoRegister }, asIs[bool]),
	field("devices.autoRegisterPerHour", 100, "With devices.autoRegister: devices one address (an IPv6 one by its /64) may register per hour; past it new ids are listed as unknown instead, so a stranger cannot fill the store with devices.",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Devices.AutoRegisterPerHour }, asIs[int]),
	field("devices.statusTimeout", 10*time.Minute, "A device without a live connection (HTTP and UDP devices, or one whose connection a crash lost) becomes unknown after this silence.",
		parseDurationAtLeast(time.Minute), func(c *Config) *time.Duration { return &c.Devices.StatusTimeout }, formatDuration),
	field("devices.idleTimeout", 10*time.Minute, "A device connection that completes no frame for this long is closed.",
		parseDurationAtLeast(10*time.Second), func(c *Config) *time.Duration { return &c.Devices.IdleTimeout }, formatDuration),
	field("devices.maxConnectionsPerIp", 1000, "Device connections accepted from one IP address, an IPv6 one by its /64 (carriers put many devices behind one NAT address).",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Devices.MaxConnectionsPerIP }, asIs[int]),
	field("security.loginMaxPerIp", 20, "Failed logins from one IP address within loginWindow before it is locked out.",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Security.LoginMaxPerIP }, asIs[int]),
	field("security.loginMaxPerAccount", 5, "Failed logins for one account within loginWindow before it is locked out.",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Security.LoginMaxPerAccount }, asIs[int]),
	field("security.loginWindow", 15*time.Minute, "How long failed logins are counted and a lockout lasts.",
		parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Security.LoginWindow }, formatDuration),
	field("security.otpMaxPerIp", 20, "Requests that send a code (password reset, registration, demo, contact change) from one IP address within otpWindow.",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Security.OTPMaxPerIP }, asIs[int]),
	field("security.otpMaxPerAccount", 5, "Requests that send a code to one e-mail address or phone number (or from one signed-in user) within otpWindow.",
		parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Security.OTPMaxPerAccount }, asIs[int]),
	field("security.otpWindow", time.Hour, "How long code requests are counted.",
		parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Security.OTPWindow }, formatDuration),
}

// protocolKeys has two keys per device protocol.
func protocolKeys(protocols []ProtocolDefault) []Key {
	var keys []Key
	for _, p := range protocols {
		name := p.Name
		doc := cmp.Or(p.Doc, "Listen for "+name+" devices.")
		keys = append(keys,
			field("protocols."+name+".enabled", true, doc,
				parseBool, func(c *Config) *bool { return &c.protocol(name).Enabled }, asIs[bool]),
			field("protocols."+name+".port", p.Port, "Port (TCP, and UDP where the protocol has it) for "+name+" devices; 0 picks a free one.",
				parsePort, func(c *Config) *int { return &c.protocol(name).Port }, asIs[int]))
	}
	return keys
}

// field builds a key of Go type T stored at at(c). parse turns a YAML or
// environment value into T and validates it; show turns T back into its
// YAML form for printing and documentation.
func field[T any](name string, def T, doc string, parse func(any) (T, error), at func(*Config) *T, show func(T) any) Key {
	return Key{
		Name:    name,
		Default: show(def),
		Doc:     doc,
		set: func(c *Config, raw any) error {
			if raw == nil { // an empty YAML value keeps the default
				*at(c) = def
				return nil
			}
			v, err := parse(raw)
			if err != nil {
				return err
			}
			*at(c) = v
			return nil
		},
		get: func(c *Config) any { return show(*at(c)) },
	}
}

func secret(k Key) Key { k.Secret = true; return k }

func asIs[T any](v T) any { return v }

// formatDuration writes durations the way people type them: 720h, 15m.
func formatDuration(d time.Duration) any {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

func formatLevel(l slog.Level) any { return strings.ToLower(l.String()) }

// lookup finds a key by exact name.
func (r *Registry) lookup(name string) (Key, bool) {
	for _, k := range r.keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// suggest names the registry key that differs from name only in case.
func (r *Registry) suggest(name string) string {
	for _, k := range r.keys {
		if strings.EqualFold(k.Name, name) {
			return fmt.Sprintf(" (did you mean %q?)", k.Name)
		}
	}
	return ""
}
