package metrics

import (
	"bufio"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// fleetd writes the Prometheus text exposition format (version 0.0.4)
// itself: the go.sum of this module lacks what client_golang needs, and
// the few counters, gauges and histograms below do not warrant it.

// histogram counts observations into fixed cumulative buckets. Observe is
// lock-free, so the ingest and ACK paths pay a few atomic adds.
type histogram struct {
	bounds  []float64 // upper bounds, ascending; +Inf is implicit
	counts  []atomic.Uint64
	count   atomic.Uint64
	sumBits atomic.Uint64 // float64 bits
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds))}
}

func (h *histogram) observe(v float64) {
	if i := sort.SearchFloat64s(h.bounds, v); i < len(h.bounds) {
		h.counts[i].Add(1)
	}
	h.count.Add(1)
	for {
		old := h.sumBits.Load()
		if h.sumBits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// histogramVec is a histogram per label value tuple.
type histogramVec struct {
	bounds []float64
	labels []string
	mu     sync.RWMutex
	m      map[string]*labeled
}

type labeled struct {
	values []string
	h      *histogram
}

func newHistogramVec(bounds []float64, labels ...string) *histogramVec {
	return &histogramVec{bounds: bounds, labels: labels, m: map[string]*labeled{}}
}

func (v *histogramVec) with(values ...string) *histogram {
	key := strings.Join(values, "\xff")
	v.mu.RLock()
	l := v.m[key]
	v.mu.RUnlock()
	if l != nil {
		return l.h
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if l = v.m[key]; l == nil {
		l = &labeled{values: values, h: newHistogram(v.bounds)}
		v.m[key] = l
	}
	return l.h
}

// sorted lists the label tuples in a stable order for the output.
func (v *histogramVec) sorted() []*labeled {
	v.mu.RLock()
	out := make([]*labeled, 0, len(v.m))
	for _, l := range v.m {
		out = append(out, l)
	}
	v.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		return strings.Join(out[i].values, "\xff") < strings.Join(out[j].values, "\xff")
	})
	return out
}

// writer renders metric families.
type writer struct{ *bufio.Writer }

func (w writer) family(name, typ, help string) {
	w.WriteString("# HELP " + name + " " + strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help) + "\n")
	w.WriteString("# TYPE " + name + " " + typ + "\n")
}

// sample writes one line; labels alternate name, value.
func (w writer) sample(name string, v float64, labels ...string) {
	w.WriteString(name)
	if len(labels) > 0 {
		w.WriteByte('{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(labels[i] + `="` + escapeLabel(labels[i+1]) + `"`)
		}
		w.WriteByte('}')
	}
	w.WriteString(" " + formatValue(v) + "\n")
}

func (w writer) histogram(name string, h *histogram, labels ...string) {
	var cum uint64
	for i, b := range h.bounds {
		cum += h.counts[i].Load()
		w.sample(name+"_bucket", float64(cum), append(labels, "le", formatValue(b))...)
	}
	count := h.count.Load()
	w.sample(name+"_bucket", float64(count), append(labels, "le", "+Inf")...)
	w.sample(name+"_sum", math.Float64frombits(h.sumBits.Load()), labels...)
	w.sample(name+"_count", float64(count), labels...)
}

func (w writer) histogramVec(name, help string, v *histogramVec) {
	w.family(name, "histogram", help)
	for _, l := range v.sorted() {
		var labels []string
		for i, n := range v.labels {
			labels = append(labels, n, l.values[i])
		}
		w.histogram(name, l.h, labels...)
	}
}

func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
