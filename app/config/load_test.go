package config

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cleanEnv removes FLEETD_* variables of the surrounding shell for the
// test, then sets env.
func cleanEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, EnvPrefix) {
			t.Setenv(name, "") // restores the value after the test
			os.Unsetenv(name)
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fleetd.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func gt06(c *Config) Protocol { p, _ := c.Protocol("gt06"); return p }

func TestLoad(t *testing.T) {
	tests := []struct {
		name string
		file string // YAML; none when empty
		env  map[string]string
		// check inspects a successful load; problems lists one substring
		// per expected problem (a failed load).
		check    func(t *testing.T, c *Config)
		problems []string
	}{
		{
			name: "defaults",
			check: func(t *testing.T, c *Config) {
				want := []struct{ got, want any }{
					{c.Data.Dir, "./data"},
					{c.Data.StorePath(), filepath.Join("data", "fleetd.db")},
					{c.Data.SocketPath(), filepath.Join("data", "fleetd.sock")},
					{c.Web.Address, ":8082"},
					{c.Web.SecureCookies, false},
					{c.Web.SessionTTL, 720 * time.Hour},
					{c.Admin, Admin{}},
					{c.Log, Log{Level: slog.LevelInfo, Format: "text"}},
					{c.Devices.AutoRegister, false},
					{c.Security, Security{LoginMaxPerIP: 20, LoginMaxPerAccount: 5, LoginWindow: 15 * time.Minute,
						OTPMaxPerIP: 20, OTPMaxPerAccount: 5, OTPWindow: time.Hour}},
					{len(c.Protocols), 7},
					{gt06(c), Protocol{Name: "gt06", Enabled: true, Port: 5023}},
				}
				for i, w := range want {
					if w.got != w.want {
						t.Errorf("%d: got %v, want %v", i, w.got, w.want)
					}
				}
			},
		},
		{
			name: "file overrides defaults",
			file: "web:\n  address: 127.0.0.1:9000\n  sessionTtl: 1h30m\nlog: {level: DEBUG, format: json}\n" +
				"protocols:\n  gt06: {port: 6000, enabled: false}\nsecurity:\n  loginMaxPerIp: 3\n",
			check: func(t *testing.T, c *Config) {
				if c.Web.Address != "127.0.0.1:9000" || c.Web.SessionTTL != 90*time.Minute ||
					c.Log != (Log{Level: slog.LevelDebug, Format: "json"}) || c.Security.LoginMaxPerIP != 3 ||
					gt06(c) != (Protocol{Name: "gt06", Port: 6000}) || c.Data.Dir != "./data" {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "environment beats file",
			file: "web: {address: ':9000'}\ndevices: {autoRegister: false}\n",
			env: map[string]string{"FLEETD_WEB_ADDRESS": ":9100", "FLEETD_DEVICES_AUTOREGISTER": "true",
				"FLEETD_PROTOCOLS_GT06_PORT": "7000", "FLEETD_ADMIN_PASSWORD": "pw", "FLEETD_CONFIG": "ignored.yaml"},
			check: func(t *testing.T, c *Config) {
				if c.Web.Address != ":9100" || !c.Devices.AutoRegister || gt06(c).Port != 7000 || c.Admin.Password != "pw" {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "empty sections and values keep defaults",
			file: "admin:\nweb:\n  address:\nprotocols: {}\n",
			check: func(t *testing.T, c *Config) {
				if c.Web.Address != ":8082" || gt06(c).Port != 5023 {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "unknown keys and variables",
			file: "web:\n  adress: ':9000'\n  securecookies: true\nsmtp: {host: x}\nprotocols: {gt06: 5023}\n",
			env:  map[string]string{"FLEETD_WEB_ADRESS": ":1", "FLEETD_NOPE": "1"},
			problems: []string{
				"protocols.gt06: unknown key",
				"smtp.host: unknown key",
				"web.adress: unknown key",
				`(did you mean "web.secureCookies"?)`, // web.securecookies
				"FLEETD_NOPE: unknown environment variable (no such config key)\n",
				"FLEETD_WEB_ADRESS: unknown environment variable (no such config key) (did you mean FLEETD_WEB_ADDRESS?)",
			},
		},
		{
			name: "invalid values are all reported with their key and source",
			file: "web:\n  address: '8082'\n  secureCookies: maybe\n  sessionTtl: 720\n" +
				"log: {level: loud, format: xml}\nadmin: {email: 'Admin <a@b.c>'}\nsecurity: {loginMaxPerIp: 0, loginWindow: forever}\n" +
				"data: {dir: ' '}\n",
			env: map[string]string{"FLEETD_PROTOCOLS_H02_PORT": "70000", "FLEETD_PROTOCOLS_WATCH_PORT": "abc"},
			problems: []string{
				`data.dir: must not be empty (in `,
				`web.address: "8082" is not host:port`,
				`web.secureCookies: "maybe" is not true or false`,
				`web.sessionTtl: 720 is not a duration with a unit`,
				`admin.email: "Admin <a@b.c>" is not a plain e-mail address`,
				`log.level: "loud" is not one of debug, info, warn, error`,
				`log.format: "xml" is not one of text, json`,
				`security.loginMaxPerIp: 0 is out of range 1..1000000`,
				`security.loginWindow: "forever" is not a duration`,
				`protocols.h02.port: 70000 is not a port (0..65535; 0 picks a free one) (from FLEETD_PROTOCOLS_H02_PORT)`,
				`protocols.watch.port: "abc" is not a whole number (from FLEETD_PROTOCOLS_WATCH_PORT)`,
			},
		},
		{
			name: "trusted proxies from the environment and from a YAML list",
			file: "web:\n  trustedProxies: [10.0.0.5, '192.168.0.0/16']\n",
			env:  map[string]string{"FLEETD_WEB_PROXYHEADER": "X-Forwarded-For"},
			check: func(t *testing.T, c *Config) {
				if !slices.Equal(c.Web.TrustedProxies, []string{"10.0.0.5", "192.168.0.0/16"}) || c.Web.ProxyHeader != "X-Forwarded-For" {
					t.Errorf("web = %+v", c.Web)
				}
			},
		},
		{
			name: "a comma-separated list of proxies",
			env:  map[string]string{"FLEETD_WEB_TRUSTEDPROXIES": "127.0.0.1, 0:0:0:0:0:0:0:1,::ffff:10.0.0.1, fd00::/8,"},
			check: func(t *testing.T, c *Config) {
				if !slices.Equal(c.Web.TrustedProxies, []string{"127.0.0.1", "::1", "10.0.0.1", "fd00::/8"}) || c.Web.ProxyHeader != "X-Real-IP" {
					t.Errorf("web = %+v", c.Web)
				}
			},
		},
		{
			name:     "a proxy that is not an address",
			env:      map[string]string{"FLEETD_WEB_TRUSTEDPROXIES": "127.0.0.1,proxy.local"},
			problems: []string{`web.trustedProxies: "proxy.local" is not an IP address or CIDR range (from FLEETD_WEB_TRUSTEDPROXIES)`},
		},
		{
			name:     "the Forwarded header",
			env:      map[string]string{"FLEETD_WEB_PROXYHEADER": "forwarded"},
			problems: []string{`web.proxyHeader: Forwarded is not supported; use a header with a plain address such as X-Real-IP (from FLEETD_WEB_PROXYHEADER)`},
		},
		{
			name:     "two enabled listeners on one port",
			file:     "web: {address: ':5001'}\nprotocols:\n  h02: {port: 5023}\n  tk103: {port: 5023, enabled: false}\n",
			problems: []string{"protocols.gt06.port: port 5023 is also used by protocols.h02.port", "protocols.gps103.port: port 5001 is also used by web.address"},
		},
		{
			name:  "a disabled protocol may share a port",
			file:  "protocols:\n  gt06: {enabled: false}\n  h02: {port: 5023}\n",
			check: func(t *testing.T, c *Config) {},
		},
		{
			name:  "short durations are accepted at their minimum",
			env:   map[string]string{"FLEETD_WEB_SESSIONTTL": "1m", "FLEETD_SECURITY_LOGINWINDOW": "1s"},
			check: func(t *testing.T, c *Config) {},
		},
		{
			name:     "too short durations are refused",
			env:      map[string]string{"FLEETD_WEB_SESSIONTTL": "59s", "FLEETD_SECURITY_LOGINWINDOW": "-1s"},
			problems: []string{"web.sessionTtl: 59s is shorter than 1m0s", "security.loginWindow: -1s is shorter than 1s"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cleanEnv(t, tt.env)
			path := ""
			if tt.file != "" {
				path = writeFile(t, tt.file)
			}
			c, err := testRegistry.Load(path)
			if tt.check != nil {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				tt.check(t, c)
				return
			}
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("Load error = %v, want *Error", err)
			}
			if len(cerr.Problems) != len(tt.problems) {
				t.Errorf("got %d problems, want %d:\n%v", len(cerr.Problems), len(tt.problems), err)
			}
			for _, want := range tt.problems {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	cleanEnv(t, nil)
	for _, path := range []string{
		filepath.Join(t.TempDir(), "missing.yaml"),
		writeFile(t, "web: [unclosed\n"),
		writeFile(t, "just a string\n"),
	} {
		_, err := testRegistry.Load(path)
		var cerr *Error
		if err == nil || errors.As(err, &cerr) || !strings.Contains(err.Error(), "config file") {
			t.Errorf("Load(%s) = %v, want a config file error", path, err)
		}
	}
}
