package metrics

import (
	"sync/atomic"

	"github.com/fleetd/fleetd/protocols"
	"github.com/prometheus/client_golang/prometheus"
)

// listenerCollector reads the listeners' atomic counters at scrape time.
type listenerCollector struct {
	stats  atomic.Pointer[map[string]*protocols.Counters]
	series []listenerSeries
}

// listenerSeries is one sample per protocol; reason, when set, is the
// fleetd_frames_failed_total label the sample carries.
type listenerSeries struct {
	desc   *prometheus.Desc
	typ    prometheus.ValueType
	reason string
	value  func(*protocols.Counters) float64
}

func newListenerCollector() *listenerCollector {
	byProtocol := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, []string{"protocol"}, nil)
	}
	failed := prometheus.NewDesc("fleetd_frames_failed_total", "Device frames not decoded, by protocol and reason.",
		[]string{"protocol", "reason"}, nil)
	counter := prometheus.CounterValue
	return &listenerCollector{series: []listenerSeries{
		{byProtocol("fleetd_device_connections_open", "Device connections open now, by protocol."), prometheus.GaugeValue, "",
			func(s *protocols.Counters) float64 { return float64(s.Open.Load()) }},
		{byProtocol("fleetd_device_connections_total", "Device connections accepted, by protocol."), counter, "",
			func(s *protocols.Counters) float64 { return float64(s.Connections.Load()) }},
		{byProtocol("fleetd_device_connections_rejected_total", "Device connections refused by the per-IP limit, by protocol."), counter, "",
			func(s *protocols.Counters) float64 { return float64(s.Rejected.Load()) }},
		{byProtocol("fleetd_frames_received_total", "Device frames (messages) received, by protocol."), counter, "",
			func(s *protocols.Counters) float64 { return float64(s.Frames.Load()) }},
		{byProtocol("fleetd_frames_unknown_device_total", "Frames from devices not registered or disabled, by protocol."), counter, "",
			func(s *protocols.Counters) float64 { return float64(s.Unknown.Load()) }},
		{byProtocol("fleetd_device_frame_bytes", "Bytes held by unfinished device frames now, by protocol (all within devices.frameBudget)."), prometheus.GaugeValue, "",
			func(s *protocols.Counters) float64 { return float64(s.Buffered.Load()) }},
		{failed, counter, "decode", func(s *protocols.Counters) float64 { return float64(s.DecodeErrors.Load()) }},
		{failed, counter, "checksum", func(s *protocols.Counters) float64 { return float64(s.ChecksumErrors.Load()) }},
		{failed, counter, "unsupported", func(s *protocols.Counters) float64 { return float64(s.Unsupported.Load()) }},
		{failed, counter, "panic", func(s *protocols.Counters) float64 { return float64(s.Panics.Load()) }},
		{failed, counter, "oversized", func(s *protocols.Counters) float64 { return float64(s.Oversized.Load()) }},
		{failed, counter, "timeout", func(s *protocols.Counters) float64 { return float64(s.TimedOut.Load()) }},
		{failed, counter, "budget", func(s *protocols.Counters) float64 { return float64(s.Evicted.Load()) }},
	}}
}

func (c *listenerCollector) set(stats map[string]*protocols.Counters) { c.stats.Store(&stats) }

func (c *listenerCollector) Describe(ch chan<- *prometheus.Desc) {
	for i, s := range c.series {
		if i == 0 || s.desc != c.series[i-1].desc {
			ch <- s.desc
		}
	}
}

func (c *listenerCollector) Collect(ch chan<- prometheus.Metric) {
	stats := c.stats.Load()
	if stats == nil {
		return
	}
	for protocol, counters := range *stats {
		for _, s := range c.series {
			labels := []string{protocol}
			if s.reason != "" {
				labels = append(labels, s.reason)
			}
			ch <- constMetric(s.desc, s.typ, s.value(counters), labels...)
		}
	}
}
