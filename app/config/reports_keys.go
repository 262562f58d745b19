package config

import "time"

// Reports bound what one report may read.
type Reports struct {
	MaxPeriod    time.Duration // 0: no limit
	MaxPositions int
}

// reportsKeys are Traccar's report.periodLimit and report.maxPositions.
func reportsKeys() []Key {
	return []Key{
		field("reports.maxPeriod", 366*24*time.Hour, "Longest from-to span of one report (like 31d or 8784h; 0: no limit); a longer one is refused with 400. Traccar's report.periodLimit.",
			parseRetention, func(c *Config) *time.Duration { return &c.Reports.MaxPeriod }, formatRetention),
		field("reports.maxPositions", 50_000, "Most positions a route report or a KML/CSV/GPX export lists per device; the rest of the span is left out (trips, stops and summaries read every position). Traccar's report.maxPositions.",
			parseIntIn(1, 10_000_000), func(c *Config) *int { return &c.Reports.MaxPositions }, asIs[int]),
	}
}
