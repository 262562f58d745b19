// Package packaging holds what operators install fleetd with; its test
// builds the .deb with build.sh and checks it from a scratch root.
package packaging

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/protocols/catalog"
)

const testVersion = "1.2.3"

// debFor returns the .deb of the host architecture: from DEB_DIR
// when CI built the packages already, else built here with build.sh.
func debFor(t *testing.T) string {
	t.Helper()
	arch := runtime.GOARCH
	dir := os.Getenv("DEB_DIR")
	if dir == "" {
		if testing.Short() {
			t.Skip("builds the package; skipped with -short")
		}
		dir = t.TempDir()
		cmd := exec.Command("bash", "build.sh", testVersion)
		cmd.Env = append(os.Environ(), "OUT="+dir, "TARGETS="+arch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build.sh: %v\n%s", err, out)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "fleetd_*_"+arch+".deb"))
	if len(matches) != 1 {
		t.Fatalf("want one fleetd_*_%s.deb in %s, found %v", arch, dir, matches)
	}
	return matches[0]
}

func dpkgDeb(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("dpkg-deb %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestDebianPackage(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb is not installed")
	}
	deb := debFor(t)
	fields := dpkgDeb(t, "--field", deb, "Package", "Architecture", "Version")
	for _, want := range []string{"Package: fleetd", "Architecture: " + runtime.GOARCH} {
		if !strings.Contains(fields, want) {
			t.Errorf("control fields lack %q:\n%s", want, fields)
		}
	}
	root, ctrl := t.TempDir(), t.TempDir()
	dpkgDeb(t, "--extract", deb, root)
	dpkgDeb(t, "--control", deb, ctrl)

	for _, f := range []struct {
		path string
		mode os.FileMode
	}{
		{"usr/bin/fleetd", 0o755},
		{"lib/systemd/system/fleetd.service", 0o644},
		{"etc/fleetd/fleetd.yaml", 0o640},
		{"usr/share/doc/fleetd/fleetd.example.yaml", 0o644},
		{"usr/share/doc/fleetd/operations.md", 0o644},
	} {
		fi, err := os.Stat(filepath.Join(root, f.path))
		if err != nil {
			t.Errorf("package lacks /%s: %v", f.path, err)
		} else if fi.Mode().Perm() != f.mode {
			t.Errorf("/%s mode %v, want %v", f.path, fi.Mode().Perm(), f.mode)
		}
	}
	conffiles, _ := os.ReadFile(filepath.Join(ctrl, "conffiles"))
	if strings.TrimSpace(string(conffiles)) != "/etc/fleetd/fleetd.yaml" {
		t.Errorf("conffiles = %q, want the config file only (kept on upgrade)", conffiles)
	}
	for _, script := range []string{"postinst", "prerm", "postrm"} {
		path := filepath.Join(ctrl, script)
		if out, err := exec.Command("sh", "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v %s", script, err, out)
		}
	}

	// The packaged config loads and puts the store where the unit allows writes.
	cfg, err := config.NewRegistry(catalog.ConfigDefaults()).Load(filepath.Join(root, "etc/fleetd/fleetd.yaml"))
	if err != nil {
		t.Fatalf("packaged config: %v", err)
	}
	if cfg.Data.Dir != "/var/lib/fleetd" {
		t.Errorf("packaged data.dir = %q", cfg.Data.Dir)
	}
	bin := filepath.Join(root, "usr/bin/fleetd")
	if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "fleetd ") {
		t.Errorf("fleetd version: %v %s", err, out)
	} else if os.Getenv("DEB_DIR") == "" && !strings.Contains(string(out), testVersion) {
		t.Errorf("fleetd version = %q, want the build.sh version %s", out, testVersion)
	}
	checkUnit(t, filepath.Join(root, "lib/systemd/system/fleetd.service"), bin)
}

// checkUnit checks the service's essential settings, then has systemd
// verify it when systemd-analyze is available.
func checkUnit(t *testing.T, path, bin string) {
	t.Helper()
	unit, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(string(unit)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			settings[k] = append(settings[k], v)
		}
	}
	for key, want := range map[string]string{
		"Type":                  "notify",
		"User":                  "fleetd",
		"ExecStart":             "/usr/bin/fleetd serve",
		"Environment":           "FLEETD_CONFIG=/etc/fleetd/fleetd.yaml",
		"StateDirectory":        "fleetd",
		"ReadWritePaths":        "/var/lib/fleetd",
		"ProtectSystem":         "strict",
		"ProtectHome":           "yes",
		"NoNewPrivileges":       "yes",
		"PrivateTmp":            "yes",
		"CapabilityBoundingSet": "",
		"WantedBy":              "multi-user.target",
	} {
		if got := settings[key]; len(got) != 1 || got[0] != want {
			t.Errorf("unit %s = %q, want %q", key, got, want)
		}
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Log("systemd-analyze not available: unit not verified by systemd")
		return
	}
	// verify checks that ExecStart exists on this machine: point it at the
	// extracted binary.
	verified := filepath.Join(t.TempDir(), "fleetd.service")
	text := strings.Replace(string(unit), "ExecStart=/usr/bin/fleetd", "ExecStart="+bin, 1)
	if err := os.WriteFile(verified, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", verified).CombinedOutput(); err != nil {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
