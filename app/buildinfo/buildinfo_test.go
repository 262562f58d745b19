package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	if got := Version("v1.2.3"); got != "v1.2.3" {
		t.Errorf("stamped: %q", got)
	}
	if got := Version(""); !strings.HasPrefix(got, "dev") {
		t.Errorf("not stamped: %q, want dev", got)
	}
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, "dev"},
		{[]debug.BuildSetting{{Key: "GOARCH", Value: "arm64"}}, "dev"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "10c688000a1b2c3d4e5f"}, {Key: "vcs.time", Value: "2026-05-01T10:00:00Z"},
			{Key: "vcs.modified", Value: "false"}}, "dev (10c688000a1b, 2026-05-01T10:00:00Z)"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}, "dev (abc, modified)"},
	} {
		if got := dev(tc.settings); got != tc.want {
			t.Errorf("dev(%v) = %q, want %q", tc.settings, got, tc.want)
		}
	}
}
