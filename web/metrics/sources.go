package metrics

import (
	"sync/atomic"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/prometheus/client_golang/prometheus"
)

// Sizer reports the store's size (storage.DB).
type Sizer interface {
	Size() (int64, error)
}

// sourceCollector reads the core's counters and the store's size at
// scrape time. Until Watch it reports nothing rather than zeros.
type sourceCollector struct {
	src   atomic.Pointer[sources]
	descs []sourceDesc
	// removed has one sample per field the ingest's ranges cover.
	removed *prometheus.Desc
}

type sources struct {
	core  *app.Core
	store Sizer
}

type sourceDesc struct {
	desc  *prometheus.Desc
	typ   prometheus.ValueType
	value func(s *sources, stats ingest.Stats) float64
}

func newSourceCollector() *sourceCollector {
	counter, gauge := prometheus.CounterValue, prometheus.GaugeValue
	return &sourceCollector{descs: []sourceDesc{
		{plain("fleetd_positions_stored_total", "Positions stored since start."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.PositionsStored) }},
		{plain("fleetd_positions_dropped_total", "Positions dropped as invalid (coordinates, time) since start."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.PositionsDropped) }},
		{plain("fleetd_positions_resent_total", "Positions a device resent after losing the ACK: acknowledged, not stored twice."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.PositionsResent) }},
		{plain("fleetd_raw_frames_kept_total", "Frames the listeners could not use, kept in the raw-frame inbox (unknown device, checksum mismatch, type not decoded)."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.FramesKept) }},
		{plain("fleetd_raw_frames_limited_total", "Frames not kept in the raw-frame inbox because their source address sent more than 30 a minute."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.FramesLimited) }},
		{plain("fleetd_password_checks_total", "Password hashes computed for logins since start: one per attempt, known account or not (a steep rise is someone guessing)."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.PasswordChecks) }},
		{plain("fleetd_device_ids_invalid_total", "Device identifiers refused as malformed (not printable UTF-8 of at most 128 characters); also counted as unknown devices."), counter,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.InvalidIDs) }},
		{plain("fleetd_backup_last_success_timestamp_seconds", "When the last scheduled backup that succeeded ended, in Unix seconds (0: none since start)."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				if _, good := s.core.Ops.Backups(); !good.At.IsZero() {
					return float64(good.At.Unix())
				}
				return 0
			}},
		{plain("fleetd_backup_last_size_bytes", "Size of the last scheduled backup archive that succeeded."), gauge,
			func(s *sources, _ ingest.Stats) float64 { _, good := s.core.Ops.Backups(); return float64(good.Size) }},
		{plain("fleetd_backup_last_failed", "1 when the last scheduled backup failed (the log says why), else 0."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				if last, _ := s.core.Ops.Backups(); last.Err != "" {
					return 1
				}
				return 0
			}},
		{plain("fleetd_data_growth_bytes_per_day", "How many bytes a day the data (store and files) grew by, over the backup archives kept (0: not known yet)."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				_, good := s.core.Ops.Backups()
				return good.GrowthPerDay
			}},
		{plain("fleetd_data_full_timestamp_seconds", "When the data disk is full at that growth, in Unix seconds (0: not growing, or not known)."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				o, err := s.core.Ops.Outlook()
				if err != nil || o.FullBy.IsZero() {
					return 0
				}
				return float64(o.FullBy.Unix())
			}},
		{plain("fleetd_devices_connected", "Devices with a live connection."), gauge,
			func(_ *sources, st ingest.Stats) float64 { return float64(st.Connections) }},
		{plain("fleetd_websocket_clients", "Live update (WebSocket) clients."), gauge,
			func(s *sources, _ ingest.Stats) float64 { return float64(s.core.Live.Clients()) }},
		{plain("fleetd_data_free_bytes", "Bytes fleetd may still write on the data directory's file system; below data.lowFreeSpace the dashboard warns (-1: unreadable)."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				space, err := s.core.Ops.Space()
				if err != nil {
					return -1
				}
				return float64(space.Free)
			}},
		{plain("fleetd_store_size_bytes", "Size of the store file; it never shrinks, freed pages are reused (-1: unreadable)."), gauge,
			func(s *sources, _ ingest.Stats) float64 {
				size, err := s.store.Size()
				if err != nil {
					return -1
				}
				return float64(size)
			}},
	}, removed: prometheus.NewDesc("fleetd_position_fields_removed_total",
		"Values removed from stored positions as outside their physical range (or not finite), by field.", []string{"field"}, nil)}
}

func plain(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }

func (c *sourceCollector) watch(core *app.Core, store Sizer) {
	c.src.Store(&sources{core: core, store: store})
}

func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d.desc
	}
	ch <- c.removed
}

func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.src.Load()
	if s == nil {
		return
	}
	stats := s.core.Stats()
	for _, d := range c.descs {
		ch <- constMetric(d.desc, d.typ, d.value(s, stats))
	}
	for field, n := range stats.FieldsRemoved {
		ch <- constMetric(c.removed, prometheus.CounterValue, float64(n), field)
	}
}

// constMetric is a sample read at scrape time; a label value that is not
// valid UTF-8 fails that sample (promhttp reports it), never the server.
func constMetric(desc *prometheus.Desc, typ prometheus.ValueType, v float64, labels ...string) prometheus.Metric {
	m, err := prometheus.NewConstMetric(desc, typ, v, labels...)
	if err != nil {
		return prometheus.NewInvalidMetric(desc, err)
	}
	return m
}
