package chunk

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

// maxDepth is encoding/json's nesting limit: deeper values cannot be in
// today's store (Unmarshal refuses them), and the bound keeps a cyclic map
// from recursing for ever.
const maxDepth = 10000

var errDepth = errors.New("chunk: value nested too deeply")

// canon returns v as encoding/json gives it back after a round trip:
// nil, bool, float64, string, []any or map[string]any; changed is false
// when v was so already (and is returned as it is).
func canon(v any, depth int) (_ any, changed bool, err error) {
	if depth > maxDepth {
		return nil, false, errDepth
	}
	switch x := v.(type) {
	case nil, bool:
		return v, false, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false, fmt.Errorf("chunk: unsupported value %v", x)
		}
		return v, false, nil
	case string:
		if utf8.ValidString(x) {
			return v, false, nil
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return model.Number(x), true, nil // integers come back as float64
	case model.Attributes:
		if x == nil {
			return nil, true, nil
		}
		m, _, err := canonMap(x, depth)
		return m, true, err
	case map[string]any:
		if x == nil {
			return nil, true, nil
		}
		return canonMap(x, depth)
	case []any:
		if x == nil {
			return nil, true, nil
		}
		var out []any
		for i, e := range x {
			c, ch, err := canon(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if ch && out == nil {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = c
			}
		}
		if out == nil {
			return x, false, nil
		}
		return out, true, nil
	case []map[string]any:
		if x == nil {
			return nil, true, nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			c, _, err := canon(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			out[i] = c
		}
		return out, true, nil
	}
	c, err := viaJSON(v)
	return c, true, err
}

// canonMap canonicalises m's values; it returns m itself when they all are
// canonical already, and goes through encoding/json when a key is not valid
// UTF-8 (encoding/json coerces keys, which may then collide).
func canonMap(m map[string]any, depth int) (_ map[string]any, changed bool, err error) {
	var out map[string]any
	for k, e := range m {
		if !utf8.ValidString(k) {
			c, err := viaJSON(m)
			if err != nil {
				return nil, false, err
			}
			cm, _ := c.(map[string]any)
			return cm, true, nil
		}
		c, ch, err := canon(e, depth+1)
		if err != nil {
			return nil, false, err
		}
		if ch && out == nil {
			out = make(map[string]any, len(m))
			for k2, e2 := range m {
				out[k2] = e2
			}
		}
		if out != nil {
			out[k] = c
		}
	}
	if out == nil {
		return m, false, nil
	}
	return out, true, nil
}

// cval is a canonical attribute value, scalars unboxed.
type cval struct {
	kind byte // tNull, tFalse, tTrue, tString, tXOR (a number), tArray or tObject
	f    float64
	s    string
	c    any // an array or object
}

// toCval is canon for an attribute value, without boxing numbers.
func toCval(v any) (cval, error) {
	switch x := v.(type) {
	case nil:
		return cval{kind: tNull}, nil
	case bool:
		if x {
			return cval{kind: tTrue}, nil
		}
		return cval{kind: tFalse}, nil
	case string:
		if utf8.ValidString(x) {
			return cval{kind: tString, s: x}, nil
		}
	case float64:
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return cval{kind: tXOR, f: x}, nil
		}
	case int:
		return cval{kind: tXOR, f: float64(x)}, nil
	case int64:
		return cval{kind: tXOR, f: float64(x)}, nil
	case int32:
		return cval{kind: tXOR, f: float64(x)}, nil
	case uint8:
		return cval{kind: tXOR, f: float64(x)}, nil
	case uint16:
		return cval{kind: tXOR, f: float64(x)}, nil
	case uint32:
		return cval{kind: tXOR, f: float64(x)}, nil
	}
	c, _, err := canon(v, 0)
	if err != nil {
		return cval{}, err
	}
	switch c.(type) {
	case []any:
		return cval{kind: tArray, c: c}, nil
	case map[string]any:
		return cval{kind: tObject, c: c}, nil
	}
	return toCval(c) // a canonical scalar now
}

// attrMap returns m, or m through encoding/json when a key is not valid
// UTF-8 (encoding/json coerces keys, which may then collide).
func attrMap(m map[string]any) (map[string]any, error) {
	for k := range m {
		if !utf8.ValidString(k) {
			c, err := viaJSON(m)
			if err != nil {
				return nil, err
			}
			cm, _ := c.(map[string]any)
			return cm, nil
		}
	}
	return m, nil
}

// sameKeys tells whether m's keys are keys.
func sameKeys(m map[string]any, keys []string) bool {
	if len(m) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// viaJSON is the round trip itself, for the types canon has no shortcut for.
func viaJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// canonString is s as encoding/json gives it back.
func canonString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b, _ := json.Marshal(s) // a string always marshals
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}

// stime is a time as JSON keeps it: the instant and the zone offset.
type stime struct {
	sec int64
	ns  int64
	off int // seconds east of UTC, whole minutes
}

// canonTime is t as encoding/json gives it back; JSON refuses years past
// 9999 and offsets of a day or more, and keeps offsets to the minute.
func canonTime(t time.Time) (stime, error) {
	_, off := t.Zone()
	if y := t.Year(); off%60 != 0 || y < 0 || y > 9999 || off <= -86400 || off >= 86400 {
		b, err := t.MarshalJSON()
		if err != nil {
			return stime{}, err
		}
		if err := t.UnmarshalJSON(b); err != nil {
			return stime{}, err
		}
		_, off = t.Zone()
	}
	return stime{sec: t.Unix(), ns: int64(t.Nanosecond()), off: off}, nil
}

func (t stime) utc() time.Time { return time.Unix(t.sec, t.ns).UTC() }

// equal compares canonical values; numbers by their bits.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	}
	return a == b
}

// equalRaw tells whether v, as it is, is the canonical value c; false
// when it cannot tell without canonicalising v.
func equalRaw(v, c any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		y, ok := c.(map[string]any)
		if !ok || x == nil || y == nil || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			w, ok := y[k]
			if !ok || !utf8.ValidString(k) || !equalRaw(e, w, depth+1) {
				return false
			}
		}
		return true
	case []map[string]any:
		y, ok := c.([]any)
		if !ok || x == nil || y == nil || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalRaw(x[i], y[i], depth+1) {
				return false
			}
		}
		return true
	case []any:
		y, ok := c.([]any)
		if !ok || x == nil || y == nil || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalRaw(x[i], y[i], depth+1) {
				return false
			}
		}
		return true
	case nil, bool:
		return v == c
	case string:
		return utf8.ValidString(x) && v == c
	}
	if cv, err := toCval(v); err == nil && cv.kind == tXOR {
		y, ok := c.(float64)
		return ok && math.Float64bits(y) == math.Float64bits(cv.f)
	}
	return false
}

// scale is an exact column scheme: v = n/c (or n*c).
type scale struct {
	mul bool
	c   float64
}

// scales are the column schemes; 0 is the float XOR. Coarser scales come
// first: a value exact at a scale is exact at its multiples too, and
// smaller n make shorter deltas.
var scales = [...]scale{
	{},
	{c: 1}, {c: 10}, {c: 100}, {c: 1e3}, {c: 1e4}, {c: 1e5}, {c: 1e6}, {c: 1e7}, {c: 1e8}, {c: 1e9},
	{c: 1800000},              // GT06 and most Chinese protocols: 1/30000 of a minute
	{mul: true, c: 0.539957},  // km/h in knots, as the decoders convert
	{c: 1.852},                // km/h in knots, divided
	{mul: true, c: 1.0 / 3.6}, // km/h in m/s
}

// constant is the scheme of a column with one value, written once.
const constant = 255

func (s scale) float(n int64) float64 {
	if s.mul {
		return float64(n) * s.c
	}
	return float64(n) / s.c
}

// int returns n with s.float(n) == v, bit for bit, if there is one.
func (s scale) int(v float64) (int64, bool) {
	var f float64
	if s.mul {
		f = math.Round(v / s.c)
	} else {
		f = math.Round(v * s.c)
	}
	if !(math.Abs(f) <= 1<<53) { // NaN too
		return 0, false
	}
	n := int64(f)
	return n, math.Float64bits(s.float(n)) == math.Float64bits(v)
}

var pow10 = [16]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// decimalAt returns n with n/10^k == v exactly, if there is one.
func decimalAt(v float64, k int) (int64, bool) {
	f := math.Round(v * pow10[k])
	if !(math.Abs(f) <= 1<<53) {
		return 0, false
	}
	n := int64(f)
	return n, math.Float64bits(float64(n)/pow10[k]) == math.Float64bits(v)
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// appendXOR writes x = bits ^ previous bits: a byte telling how many of
// x's high and low bytes are zero (0 for x == 0), then the bytes between.
func appendXOR(b []byte, x uint64) []byte {
	if x == 0 {
		return append(b, 0)
	}
	var lz, tz int
	for lz = 0; x>>(56-8*lz)&0xff == 0; lz++ {
	}
	for tz = 0; x>>(8*tz)&0xff == 0; tz++ {
	}
	b = append(b, byte(1+lz<<3+tz))
	for i := 7 - lz; i >= tz; i-- {
		b = append(b, byte(x>>(8*i)))
	}
	return b
}

// appendDelta writes the time (sec, ns) relative to (bsec, bns): one
// varint of nanoseconds when the seconds differ by less than 2^31, else
// seconds and nanoseconds apart.
func appendDelta(b []byte, sec, ns, bsec, bns int64) []byte {
	if d := sec - bsec; d > -(1<<31) && d < 1<<31 {
		return binary.AppendUvarint(b, zigzag(d*1e9+ns-bns)<<1)
	}
	b = binary.AppendUvarint(b, zigzag(sec-bsec)<<1|1)
	return binary.AppendUvarint(b, uint64(ns))
}
