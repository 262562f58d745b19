package config

import (
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRegistryDefaultsParseToThemselves(t *testing.T) {
	def := testRegistry.Default()
	for _, k := range testRegistry.Keys() {
		c := testRegistry.Default()
		if err := k.set(c, k.Default); err != nil {
			t.Errorf("%s: default %v does not validate: %v", k.Name, k.Default, err)
			continue
		}
		if got := k.get(c); got != k.Default {
			t.Errorf("%s: default %v reads back as %v", k.Name, k.Default, got)
		}
		if !reflect.DeepEqual(c, def) {
			t.Errorf("%s: setting the default changed the config", k.Name)
		}
		if k.Doc == "" {
			t.Errorf("%s has no doc", k.Name)
		}
	}
}

func TestRegistryShape(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range testRegistry.Keys() {
		if seen[k.Name] || seen[k.EnvVar()] {
			t.Errorf("%s: name or variable %s twice", k.Name, k.EnvVar())
		}
		seen[k.Name], seen[k.EnvVar()] = true, true
		// A key that is also a section ("web" and "web.address") cannot
		// be written in YAML; "_" in a name would make variables ambiguous.
		for _, o := range testRegistry.Keys() {
			if strings.HasPrefix(o.Name, k.Name+".") {
				t.Errorf("%s is both a key and a section", k.Name)
			}
		}
		if strings.Contains(k.Name, "_") {
			t.Errorf("%s contains _", k.Name)
		}
	}
}

func TestEnvVar(t *testing.T) {
	for name, want := range map[string]string{
		"web.address":          "FLEETD_WEB_ADDRESS",
		"data.dir":             "FLEETD_DATA_DIR",
		"protocols.gt06.port":  "FLEETD_PROTOCOLS_GT06_PORT",
		"devices.autoRegister": "FLEETD_DEVICES_AUTOREGISTER",
	} {
		k, ok := testRegistry.lookup(name)
		if !ok || k.EnvVar() != want {
			t.Errorf("%s: EnvVar = %q (found %v), want %q", name, k.EnvVar(), ok, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		720 * time.Hour:           "720h",
		15 * time.Minute:          "15m",
		90 * time.Minute:          "1h30m",
		time.Hour + 5*time.Second: "1h0m5s",
		90 * time.Second:          "1m30s",
		5 * time.Second:           "5s",
		0:                         "0s",
		1500 * time.Millisecond:   "1.5s",
		time.Hour + time.Minute:   "1h1m",
		10 * time.Hour:            "10h",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %v, want %s", d, got, want)
		}
	}
}

func TestNearlyEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"FLEETD_WEB_ADDRESS", "FLEETD_WEB_ADRESS", true},
		{"FLEETD_WEB_ADDRESS", "FLEETD_WEB_ADDRESSS", true},
		{"FLEETD_WEB_ADDRESS", "FLEETD_WEB_ADDRESX", true},
		{"FLEETD_WEB_ADDRESS", "FLEETD_WEB_ADDR", false},
		{"FLEETD_WEB_ADDRESS", "FLEETD_WEB_ADRESX", false},
		{"", "X", true},
		{"", "", true},
	} {
		if got := nearlyEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("nearlyEqual(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestRedaction(t *testing.T) {
	for _, tt := range []struct {
		password, want string
	}{
		{"s3cret-Pa55", Redacted},
		{"", ""},
	} {
		c := testRegistry.Default()
		c.Admin.Password = tt.password
		if got := testRegistry.Values(c)["admin.password"]; got != tt.want {
			t.Errorf("password %q prints as %v, want %q", tt.password, got, tt.want)
		}
		out, err := testRegistry.YAML(c)
		if err != nil {
			t.Fatal(err)
		}
		if tt.password != "" && strings.Contains(string(out), tt.password) {
			t.Errorf("YAML leaks the password:\n%s", out)
		}
		if !strings.Contains(string(out), "    port: 5023\n") || !strings.Contains(string(out), "  sessionTtl: 720h\n") {
			t.Errorf("YAML lacks nested values:\n%s", out)
		}
	}
}

// The printed YAML is a valid config file that loads back to the same
// configuration (secrets aside).
func TestYAMLRoundTrip(t *testing.T) {
	cleanEnv(t, nil)
	c := testRegistry.Default()
	c.Web.Address, c.Web.SessionTTL, c.Log.Format = "127.0.0.1:1234", 90*time.Minute, "json"
	c.protocol("h02").Enabled = false
	out, err := testRegistry.YAML(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := testRegistry.Load(writeFile(t, string(out)))
	if err != nil {
		t.Fatalf("testRegistry.Load(printed YAML): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip changed the config:\n got %+v\nwant %+v", back, c)
	}
}

// The device part of the registry is what NewRegistry is given: the
// protocols' keys and defaults, and the frame limits' defaults.
func TestRegistryDeviceDefaults(t *testing.T) {
	cleanEnv(t, map[string]string{"FLEETD_PROTOCOLS_GT06_PORT": "5023"})
	r := NewRegistry(DeviceDefaults{Protocols: []ProtocolDefault{{Name: "beacon", Port: 7000}}, FrameTimeout: 2 * time.Minute, FrameBudget: 1 << 20})
	c := r.Default()
	if want := []Protocol{{Name: "beacon", Enabled: true, Port: 7000}}; !reflect.DeepEqual(c.Protocols, want) {
		t.Errorf("protocols %+v, want %+v", c.Protocols, want)
	}
	if c.Devices.Frames != (DeviceFrames{Timeout: 2 * time.Minute, Budget: 1 << 20}) {
		t.Errorf("frame limits %+v", c.Devices.Frames)
	}
	if _, err := r.Load(""); err == nil || !strings.Contains(err.Error(), "FLEETD_PROTOCOLS_GT06_PORT: unknown environment variable") {
		t.Errorf("a protocol the registry was not given: %v", err)
	}
}

func TestEnabledPorts(t *testing.T) {
	c := testRegistry.Default()
	c.protocol("h02").Enabled = false
	c.protocol("gt06").Port = 6000
	got := c.EnabledPorts()
	if _, on := got["h02"]; on || got["gt06"] != 6000 || got["osmand"] != 5055 || len(got) != len(c.Protocols)-1 {
		t.Errorf("EnabledPorts = %v", got)
	}
}

func TestLogger(t *testing.T) {
	var b strings.Builder
	Log{Level: slog.LevelWarn, Format: "json"}.Logger(&b).Info("hidden")
	Log{Level: slog.LevelWarn, Format: "json"}.Logger(&b).Warn("shown")
	if got := b.String(); strings.Contains(got, "hidden") || !strings.HasPrefix(got, `{"time":`) || !strings.Contains(got, `"msg":"shown"`) {
		t.Errorf("json at warn: %q", got)
	}
	b.Reset()
	Log{Format: "text"}.Logger(&b).Info("plain")
	if got := b.String(); !strings.Contains(got, "level=INFO msg=plain") {
		t.Errorf("text: %q", got)
	}
}
