package suntech

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// fields reads a report's ';'-separated fields in order; the first error
// sticks and later reads return zero values.
type fields struct {
	f   []string
	i   int
	err error
}

func (r *fields) left() int { return len(r.f) - r.i }

func (r *fields) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("suntech: "+format, a...)
	}
}

func (r *fields) next() string {
	if r.i >= len(r.f) {
		r.fail("report ends early (field %d)", r.i)
		return ""
	}
	r.i++
	return r.f[r.i-1]
}

func (r *fields) skip(n int) {
	for range n {
		r.next()
	}
}

func (r *fields) int() int64 {
	s := r.next()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil && r.err == nil {
		r.fail("field %d: %q is not a whole number", r.i-1, s)
	}
	return v
}

func (r *fields) hex() int64 {
	s := r.next()
	v, err := strconv.ParseInt(s, 16, 64)
	if err != nil && r.err == nil {
		r.fail("field %d: %q is not hex", r.i-1, s)
	}
	return v
}

func (r *fields) float() float64 {
	s := r.next()
	v, err := strconv.ParseFloat(s, 64)
	if (err != nil || math.IsInf(v, 0) || math.IsNaN(v)) && r.err == nil {
		r.fail("field %d: %q is not a number", r.i-1, s)
		return 0
	}
	return v
}

// dateTime reads "yyyymmdd;hh:mm:ss" (UTC).
func (r *fields) dateTime() time.Time {
	d, t := r.next(), r.next()
	v, err := time.Parse("2006010215:04:05", d+t)
	if err != nil && r.err == nil {
		r.fail("date/time %q %q", d, t)
	}
	return v
}

// location reads latitude, longitude, speed (km/h) and course.
func (r *fields) location() (lat, lon, knots, course float64) {
	return r.float(), r.float(), r.float() * knotsPerKph, r.float()
}
