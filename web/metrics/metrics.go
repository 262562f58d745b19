// Package metrics serves fleetd's metrics in Prometheus text format on
// GET /metrics: device listeners, the ingest, live clients, HTTP latency
// and the store.
package metrics

import (
	"bufio"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
)

// Sizer reports the store's size (storage.DB).
type Sizer interface {
	Size() (int64, error)
}

// latencyBuckets span a fast ACK (sub-millisecond) to a commit stuck
// behind a slow SD card (seconds).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// batchBuckets: one fix per message is usual; Teltonika sends up to 255.
var batchBuckets = []float64{1, 2, 5, 10, 25, 50, 100, 255}

// Metrics holds one fleetd serve's recorders and reads the rest from its
// sources at scrape time.
type Metrics struct {
	core    *app.Core
	store   Sizer
	version string
	started time.Time

	ack         *histogramVec // protocol
	commit      *histogram
	batch       *histogram
	http        *histogramVec // method, route
	ingestFails counter

	mu        sync.Mutex
	listeners map[string]*protocols.Counters
}

type counter struct{ n atomic.Uint64 }

// New builds the metrics of core and store; version labels fleetd_build_info.
func New(core *app.Core, store Sizer, version string) *Metrics {
	return &Metrics{
		core: core, store: store, version: version, started: time.Now(),
		ack:    newHistogramVec(latencyBuckets, "protocol"),
		commit: newHistogram(latencyBuckets),
		batch:  newHistogram(batchBuckets),
		http:   newHistogramVec(latencyBuckets, "method", "route"),
	}
}

// ObserveAck records one ACK's latency; it is protocols.Options.AckLatency.
func (m *Metrics) ObserveAck(protocol string, d time.Duration) {
	m.ack.with(protocol).observe(d.Seconds())
}

// Listeners makes the listeners' counters (catalog.Listening.Stats) part
// of every scrape.
func (m *Metrics) Listeners(stats map[string]*protocols.Counters) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.listeners = stats
}

// Sink wraps the core as the listeners' sink, timing each ingest call.
func (m *Metrics) Sink(s protocols.HTTPSink) protocols.HTTPSink { return sink{s, m} }

type sink struct {
	protocols.HTTPSink
	m *Metrics
}

func (s sink) Ingest(deviceID int64, positions []*app.Position) error {
	began := time.Now()
	err := s.HTTPSink.Ingest(deviceID, positions)
	if err != nil {
		s.m.ingestFails.n.Add(1)
		return err
	}
	s.m.commit.observe(time.Since(began).Seconds())
	s.m.batch.observe(float64(len(positions)))
	return nil
}

// WriteTo writes every metric in Prometheus text format.
func (m *Metrics) WriteTo(out io.Writer) (int64, error) {
	cw := &countingWriter{w: out}
	w := writer{bufio.NewWriter(cw)}
	m.writeCore(w)
	m.writeListeners(w)
	w.histogramVec("fleetd_ack_latency_seconds",
		"Time from a device frame's arrival to its ACK being written (the position is durable by then).", m.ack)
	w.family("fleetd_ingest_commit_seconds", "histogram",
		"Time an ingest call takes until its positions are committed and synced (group commit wait included).")
	w.histogram("fleetd_ingest_commit_seconds", m.commit)
	w.family("fleetd_ingest_batch_positions", "histogram", "Positions per ingest call (one device message).")
	w.histogram("fleetd_ingest_batch_positions", m.batch)
	w.histogramVec("fleetd_http_request_duration_seconds",
		"HTTP request latency by method and route pattern (live socket sessions excluded).", m.http)
	err := w.Flush()
	return cw.n, err
}

func (m *Metrics) writeCore(w writer) {
	s := m.core.Stats()
	size, err := m.store.Size()
	if err != nil {
		size = -1
	}
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	for _, g := range []struct {
		name, typ, help string
		v               float64
	}{
		{"fleetd_positions_stored_total", "counter", "Positions stored since start.", float64(s.PositionsStored)},
		{"fleetd_positions_dropped_total", "counter", "Positions dropped as invalid (coordinates, time) since start.", float64(s.PositionsDropped)},
		{"fleetd_ingest_failures_total", "counter", "Ingest calls that failed to store (not acknowledged; the device resends).", float64(m.ingestFails.n.Load())},
		{"fleetd_devices_connected", "gauge", "Devices with a live connection.", float64(s.Connections)},
		{"fleetd_websocket_clients", "gauge", "Live update (WebSocket) clients.", float64(m.core.LiveClients())},
		{"fleetd_store_size_bytes", "gauge", "Size of the store file; it never shrinks, freed pages are reused (-1: unreadable).", float64(size)},
		{"fleetd_start_time_seconds", "gauge", "When this fleetd serve started, in Unix seconds.", float64(m.started.Unix())},
		{"go_goroutines", "gauge", "Goroutines that currently exist.", float64(runtime.NumGoroutine())},
		{"go_memstats_heap_inuse_bytes", "gauge", "Heap bytes in use.", float64(mem.HeapInuse)},
		{"go_memstats_sys_bytes", "gauge", "Bytes obtained from the system.", float64(mem.Sys)},
	} {
		w.family(g.name, g.typ, g.help)
		w.sample(g.name, g.v)
	}
	w.family("fleetd_build_info", "gauge", "Always 1; the labels name the build.")
	w.sample("fleetd_build_info", 1, "version", m.version, "goarch", runtime.GOARCH, "goversion", runtime.Version())
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
