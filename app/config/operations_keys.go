package config

import (
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/ingest"
)

// Metrics configures GET /metrics.
type Metrics struct {
	// Token lets non-loopback clients scrape with "Authorization: Bearer
	// <token>"; empty: loopback clients only.
	Token string
}

// Retention says how long positions and events are kept; 0 keeps forever.
type Retention struct {
	Positions time.Duration
	Events    time.Duration
	Audit     time.Duration
	Media     time.Duration // 0: with the positions
}

// operationsKeys configure metrics and data retention.
func operationsKeys() []Key {
	return []Key{
		secret(field("metrics.token", "", "Bearer token that lets non-loopback clients read GET /metrics (empty: loopback clients only).",
			parseString, func(c *Config) *string { return &c.Metrics.Token }, asIs[string])),
		field("retention.positions", time.Duration(0), "Delete positions, and the files devices sent with them, older than this (like 90d or 720h; 0 keeps them forever). Device attribute retention.positions overrides it.",
			parseRetention, func(c *Config) *time.Duration { return &c.Retention.Positions }, formatRetention),
		field("retention.media", time.Duration(0), "Delete the files devices sent (photos, voice messages) older than this (like 30d), to keep them for less time than positions; 0: they go with their positions (retention.positions). They are never kept longer than their positions.",
			parseRetention, func(c *Config) *time.Duration { return &c.Retention.Media }, formatRetention),
		field("retention.events", time.Duration(0), "Delete events older than this (like 90d; 0 keeps them forever). Device attribute retention.events overrides it.",
			parseRetention, func(c *Config) *time.Duration { return &c.Retention.Events }, formatRetention),
		field("retention.audit", 365*24*time.Hour, "Delete audit log entries (who changed what, logins) older than this (like 365d; 0 keeps them forever).",
			parseRetention, func(c *Config) *time.Duration { return &c.Retention.Audit }, formatRetention),
	}
}

func parseRetention(v any) (time.Duration, error) {
	switch n := v.(type) {
	case int:
		if n == 0 {
			return 0, nil
		}
	case string:
		return ingest.ParseRetention(n)
	}
	return 0, fmt.Errorf("%v is not a retention window (like 90d, 720h or 0 to keep forever)", v)
}

// formatRetention writes whole days as "90d", 0 as 0, the rest as a duration.
func formatRetention(d time.Duration) any {
	const day = 24 * time.Hour
	switch {
	case d == 0:
		return 0
	case d%day == 0:
		return fmt.Sprintf("%dd", d/day)
	}
	return formatDuration(d)
}
