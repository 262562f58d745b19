package config

import (
	"testing"
	"time"
)

func TestRetentionValues(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want time.Duration
		ok   bool
		show any
	}{
		{0, 0, true, 0},
		{"0", 0, true, 0},
		{"90d", 90 * 24 * time.Hour, true, "90d"},
		{"36h", 36 * time.Hour, true, "36h"},
		{"-1d", 0, false, nil},
		{30, 0, false, nil}, // a bare number is ambiguous: days or hours?
		{true, 0, false, nil},
		{"soon", 0, false, nil},
	} {
		got, err := parseRetention(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseRetention(%#v) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
			continue
		}
		if tc.ok && formatRetention(got) != tc.show {
			t.Errorf("formatRetention(%v) = %#v, want %#v", got, formatRetention(got), tc.show)
		}
	}
}
