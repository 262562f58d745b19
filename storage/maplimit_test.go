package storage

import (
	"bytes"
	"log/slog"
	"testing"
)

func TestWarnNearMapLimit(t *testing.T) {
	for _, tc := range []struct {
		goarch string
		size   int64
		warn   bool
	}{
		{"arm", 100 << 20, false},
		{"arm", mapLimitWarn - 1, false},
		{"arm", mapLimitWarn, true},
		{"arm", 2 << 30, true},
		{"386", 1600 << 20, true},
		{"arm64", 10 << 30, false},
		{"amd64", 10 << 30, false},
	} {
		var log bytes.Buffer
		got := WarnNearMapLimit(slog.New(slog.NewTextHandler(&log, nil)), tc.size, tc.goarch)
		if got != tc.warn || (log.Len() > 0) != tc.warn {
			t.Errorf("%s at %d bytes: warned %v (%q), want %v", tc.goarch, tc.size, got, log.String(), tc.warn)
		}
	}
}
