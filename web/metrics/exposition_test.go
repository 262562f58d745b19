package metrics

import (
	"bufio"
	"math"
	"strings"
	"testing"
)

func TestHistogramExposition(t *testing.T) {
	h := newHistogram([]float64{1, 5})
	for _, v := range []float64{0.5, 1, 3, 7, 7} {
		h.observe(v)
	}
	var b strings.Builder
	w := writer{bufio.NewWriter(&b)}
	w.histogram("x", h, "k", `a"b\c`+"\n")
	w.Flush()
	want := `x_bucket{k="a\"b\\c\n",le="1"} 2
x_bucket{k="a\"b\\c\n",le="5"} 3
x_bucket{k="a\"b\\c\n",le="+Inf"} 5
x_sum{k="a\"b\\c\n"} 18.5
x_count{k="a\"b\\c\n"} 5
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1.5, "1.5"}, {1e21, "1e+21"}, {math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"}, {math.NaN(), "NaN"}, {-3, "-3"},
	} {
		if got := formatValue(tc.v); got != tc.want {
			t.Errorf("formatValue(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestHistogramVecSeparatesLabels(t *testing.T) {
	v := newHistogramVec([]float64{1}, "p")
	v.with("b").observe(2)
	v.with("a").observe(0.5)
	v.with("b").observe(0.1)
	got := v.sorted()
	if len(got) != 2 || got[0].values[0] != "a" || got[1].h.count.Load() != 2 || got[0].h.counts[0].Load() != 1 {
		t.Errorf("label tuples wrong: %+v", got)
	}
}
