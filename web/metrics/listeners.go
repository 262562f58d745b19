package metrics

import (
	"sort"

	"github.com/fleetd/fleetd/protocols"
)

// writeListeners renders the listeners' atomic counters, read at scrape
// time so the device path pays nothing for them.
func (m *Metrics) writeListeners(w writer) {
	m.mu.Lock()
	stats := m.listeners
	m.mu.Unlock()
	names := make([]string, 0, len(stats))
	for name := range stats {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, f := range []struct {
		name, typ, help, reason string
		value                   func(*protocols.Counters) float64
	}{
		{"fleetd_device_connections_open", "gauge", "Device connections open now, by protocol.", "",
			func(s *protocols.Counters) float64 { return float64(s.Open.Load()) }},
		{"fleetd_device_connections_total", "counter", "Device connections accepted, by protocol.", "",
			func(s *protocols.Counters) float64 { return float64(s.Connections.Load()) }},
		{"fleetd_device_connections_rejected_total", "counter", "Device connections refused by the per-IP limit, by protocol.", "",
			func(s *protocols.Counters) float64 { return float64(s.Rejected.Load()) }},
		{"fleetd_frames_received_total", "counter", "Device frames (messages) received, by protocol.", "",
			func(s *protocols.Counters) float64 { return float64(s.Frames.Load()) }},
		{"fleetd_frames_unknown_device_total", "counter", "Frames from devices not registered or disabled, by protocol.", "",
			func(s *protocols.Counters) float64 { return float64(s.Unknown.Load()) }},
		{"fleetd_frames_failed_total", "counter", "Device frames not decoded, by protocol and reason.", "decode",
			func(s *protocols.Counters) float64 { return float64(s.DecodeErrors.Load()) }},
		{"", "", "", "checksum", func(s *protocols.Counters) float64 { return float64(s.ChecksumErrors.Load()) }},
		{"", "", "", "panic", func(s *protocols.Counters) float64 { return float64(s.Panics.Load()) }},
		{"", "", "", "oversized", func(s *protocols.Counters) float64 { return float64(s.Oversized.Load()) }},
	} {
		name := f.name
		if name != "" {
			w.family(name, f.typ, f.help)
		} else {
			name = "fleetd_frames_failed_total" // further reasons of the family above
		}
		for _, p := range names {
			labels := []string{"protocol", p}
			if f.reason != "" {
				labels = append(labels, "reason", f.reason)
			}
			w.sample(name, f.value(stats[p]), labels...)
		}
	}
}
