// Package metrics serves fleetd's metrics in Prometheus format on
// GET /metrics: device listeners, the ingest, the store's group commits,
// live clients, HTTP latency, and the Go runtime and process.
package metrics

import (
	"runtime"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/protocols"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// latencyBuckets span a fast ACK (sub-millisecond) to a commit stuck
// behind a slow SD card (seconds).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// batchBuckets: one fix per message is usual; Teltonika sends up to 255.
var batchBuckets = []float64{1, 2, 5, 10, 25, 50, 100, 255}

// commitCallBuckets: idle, a group commit holds one call; under load it
// holds what arrived during the previous commit, up to
// storage.DefaultMaxBatchSize.
var commitCallBuckets = []float64{1, 2, 5, 10, 25, 50, 100, 250, 500, 1000}

// Metrics holds one fleetd serve's registry. Histograms are recorded as
// things happen; counters and gauges are read from the core, the store and
// the listeners at scrape time, so the device path pays nothing for them.
type Metrics struct {
	registry *prometheus.Registry

	ack         *prometheus.HistogramVec // protocol
	ingest      prometheus.Histogram
	batch       prometheus.Histogram
	ingestFails prometheus.Counter
	commitCalls prometheus.Histogram
	commitTime  prometheus.Histogram
	http        *prometheus.HistogramVec // method, route

	sources   *sourceCollector
	listeners *listenerCollector
}

// New builds the metrics on a registry of their own; version labels
// fleetd_build_info. It comes before the store opens (ObserveCommit is the
// store's OnCommit); Watch adds the core and the store once they exist.
func New(version string) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		ack: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "fleetd_ack_latency_seconds",
			Help:    "Time from a device frame's arrival to its ACK being written (the position is durable by then).",
			Buckets: latencyBuckets}, []string{"protocol"}),
		ingest: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fleetd_ingest_commit_seconds",
			Help:    "Time an ingest call takes until its positions are committed and synced (group commit wait included).",
			Buckets: latencyBuckets}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fleetd_ingest_batch_positions",
			Help: "Positions per ingest call (one device message).", Buckets: batchBuckets}),
		ingestFails: prometheus.NewCounter(prometheus.CounterOpts{Name: "fleetd_ingest_failures_total",
			Help: "Ingest calls that failed to store (not acknowledged; the device resends)."}),
		commitCalls: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fleetd_store_commit_calls",
			Help:    "Batch calls (mostly ingest calls) sharing one group commit of the store's writer.",
			Buckets: commitCallBuckets}),
		commitTime: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fleetd_store_commit_seconds",
			Help:    "Time one group commit of the store's writer takes, fsync included.",
			Buckets: latencyBuckets}),
		http: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "fleetd_http_request_duration_seconds",
			Help:    "HTTP request latency by method and route pattern (live socket sessions excluded).",
			Buckets: latencyBuckets}, []string{"method", "route"}),
		sources:   newSourceCollector(),
		listeners: newListenerCollector(),
	}
	build := prometheus.NewGauge(prometheus.GaugeOpts{Name: "fleetd_build_info",
		Help:        "Always 1; the labels name the build.",
		ConstLabels: prometheus.Labels{"version": version, "goarch": runtime.GOARCH, "goversion": runtime.Version()}})
	build.Set(1)
	started := prometheus.NewGauge(prometheus.GaugeOpts{Name: "fleetd_start_time_seconds",
		Help: "When this fleetd serve started, in Unix seconds."})
	started.Set(float64(time.Now().Unix()))
	media := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "fleetd_device_media_bytes",
		Help: "Bytes held by device files being put together from many frames (voice messages, pictures), all within the shared media budget."},
		func() float64 { return float64(protocols.MediaHeld()) })
	m.registry.MustRegister(m.ack, m.ingest, m.batch, m.ingestFails, m.commitCalls, m.commitTime, m.http,
		m.sources, m.listeners, build, started, media,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Watch makes the core's counters and the store's size part of every
// scrape.
func (m *Metrics) Watch(core *app.Core, store Sizer) { m.sources.watch(core, store) }

// Listeners makes the listeners' counters (catalog.Listening.Stats) part
// of every scrape.
func (m *Metrics) Listeners(stats map[string]*protocols.Counters) { m.listeners.set(stats) }

// ObserveAck records one ACK's latency; it is protocols.Options.AckLatency.
func (m *Metrics) ObserveAck(protocol string, d time.Duration) {
	m.ack.WithLabelValues(protocol).Observe(d.Seconds())
}

// ObserveCommit records one group commit of the store; it is
// storage.Options.OnCommit and runs on the store's writer.
func (m *Metrics) ObserveCommit(calls int, took time.Duration) {
	m.commitCalls.Observe(float64(calls))
	m.commitTime.Observe(took.Seconds())
}

// ObserveIngest records one ingest call of the listeners: its positions
// and the time until they were durable, or its failure; it is
// protocols.Options.Ingested.
func (m *Metrics) ObserveIngest(positions int, took time.Duration, err error) {
	if err != nil {
		m.ingestFails.Inc()
		return
	}
	m.ingest.Observe(took.Seconds())
	m.batch.Observe(float64(positions))
}
