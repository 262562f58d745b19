// Package config is fleetd's one configuration registry: every key with its
// default, validation, documentation and secrecy, loaded from one YAML file
// and FLEETD_* environment variables into a typed Config. What it knows of
// the device listeners (the protocols with their default ports, the frame
// limits) main passes to NewRegistry: config imports no protocol.
package config

import (
	"io"
	"log/slog"
	"path/filepath"
	"time"
)

// Config is the effective configuration the rest of fleetd reads.
type Config struct {
	Data     Data
	Web      Web
	Admin    Admin
	Log      Log
	Devices  Devices
	Security Security
	// Account access, OTP delivery and push (spec A, H, K).
	Server Server
	Mail   Mail
	SMS    SMS
	Push   Push
	// Notification channels beyond those (notify_keys.go).
	Notificators Notificators
	// Operations: GET /metrics access and data retention.
	Metrics   Metrics
	Backup    Backup // backup_keys.go
	Retention Retention
	// The fleet office: uploads, documents and service intervals (spec F, G, L).
	Files       Files
	Documents   Documents
	Maintenance Maintenance
	// Reports bound what one report may read (reports_keys.go).
	Reports Reports
	// Protocols lists every known device protocol in registry order.
	Protocols []Protocol
}

// Data is where fleetd keeps its files.
type Data struct {
	Dir          string
	LowFreeSpace int64 // bytes (store_keys.go)
}

// StorePath is the bbolt store file.
func (d Data) StorePath() string { return filepath.Join(d.Dir, "fleetd.db") }

// InitialPasswordFile keeps the generated first administrator password
// (mode 0600) until it is changed.
func (d Data) InitialPasswordFile() string { return filepath.Join(d.Dir, "initial-admin-password") }

// SocketPath is the control socket a running server listens on for the CLI
// (hot backup), since the store file is locked while it runs.
func (d Data) SocketPath() string { return filepath.Join(d.Dir, "fleetd.sock") }

// Web configures the HTTP server (API and dashboard).
type Web struct {
	Address        string
	SecureCookies  bool
	SessionTTL     time.Duration
	URL            string
	TrustedProxies []string
	ProxyHeader    string
	WebLimits             // web_limits_keys.go
	TLS            TLS    // tls_keys.go
	Map            WebMap // web_map_keys.go
}

// Admin is the first administrator created on an empty store.
type Admin struct {
	Email    string
	Password string
}

// Log configures the process logger.
type Log struct {
	Level  slog.Level
	Format string // "text" or "json"
}

// Logger is the process logger writing to w.
func (l Log) Logger(w io.Writer) *slog.Logger {
	o := &slog.HandlerOptions{Level: l.Level}
	if l.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// Devices configures how unknown devices are treated.
type Devices struct {
	AutoRegister        bool
	AutoRegisterPerHour int
	StatusTimeout       time.Duration
	IdleTimeout         time.Duration
	MaxConnectionsPerIP int
	Frames              DeviceFrames
}

// Security bounds failed logins.
type Security struct {
	LoginMaxPerIP      int
	LoginMaxPerAccount int
	LoginWindow        time.Duration
	OTPMaxPerIP        int
	OTPMaxPerAccount   int
	OTPWindow          time.Duration
}

// Protocol is one device protocol listener.
type Protocol struct {
	Name    string
	Enabled bool
	Port    int
}

// Protocol returns the named protocol's settings.
func (c *Config) Protocol(name string) (Protocol, bool) {
	for _, p := range c.Protocols {
		if p.Name == name {
			return p, true
		}
	}
	return Protocol{}, false
}

// EnabledPorts maps each enabled protocol to its port.
func (c *Config) EnabledPorts() map[string]int {
	ports := map[string]int{}
	for _, p := range c.Protocols {
		if p.Enabled {
			ports[p.Name] = p.Port
		}
	}
	return ports
}

// protocol returns the named entry for the registry to fill, adding it on
// first use so Protocols keeps registry order.
func (c *Config) protocol(name string) *Protocol {
	for i := range c.Protocols {
		if c.Protocols[i].Name == name {
			return &c.Protocols[i]
		}
	}
	c.Protocols = append(c.Protocols, Protocol{Name: name})
	return &c.Protocols[len(c.Protocols)-1]
}
