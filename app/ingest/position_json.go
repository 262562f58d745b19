package ingest

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

// encodePosition is json.Marshal(p), byte for byte, made faster for the
// ingest: encoding/json spends ~14 µs on a typical position (reflection
// and the sorted attribute map), a sixth of a position's whole cost in the
// load test. Values the fast path does not cover (strings that need
// escaping, value types no decoder makes) go to encoding/json.
func encodePosition(p *model.Position) ([]byte, error) {
	if b, ok := appendPosition(make([]byte, 0, 512), p); ok {
		return b, nil
	}
	return json.Marshal(p)
}

// appendPosition appends p's JSON as encoding/json writes it; ok is false
// when p holds something it leaves to encoding/json.
func appendPosition(b []byte, p *model.Position) (_ []byte, ok bool) {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, `,"deviceId":`...)
	b = strconv.AppendInt(b, p.DeviceID, 10)
	b = append(b, `,"protocol":`...)
	if b, ok = appendString(b, p.Protocol); !ok {
		return b, false
	}
	for _, f := range [...]struct {
		name string
		t    time.Time
	}{{`,"serverTime":`, p.ServerTime}, {`,"deviceTime":`, p.DeviceTime}, {`,"fixTime":`, p.FixTime}} {
		if b, ok = appendTime(append(b, f.name...), f.t); !ok {
			return b, false
		}
	}
	b = strconv.AppendBool(append(b, `,"outdated":`...), p.Outdated)
	b = strconv.AppendBool(append(b, `,"valid":`...), p.Valid)
	for _, f := range [...]struct {
		name string
		v    float64
	}{{`,"latitude":`, p.Latitude}, {`,"longitude":`, p.Longitude}, {`,"altitude":`, p.Altitude},
		{`,"speed":`, p.Speed}, {`,"course":`, p.Course}} {
		if b, ok = appendFloat(append(b, f.name...), f.v); !ok {
			return b, false
		}
	}
	b = append(b, `,"address":`...)
	if p.Address == nil {
		b = append(b, "null"...)
	} else if b, ok = appendString(b, *p.Address); !ok {
		return b, false
	}
	if b, ok = appendFloat(append(b, `,"accuracy":`...), p.Accuracy); !ok {
		return b, false
	}
	if b, ok = appendValue(append(b, `,"network":`...), p.Network, 0); !ok {
		return b, false
	}
	b = append(b, `,"geofenceIds":`...)
	if p.GeofenceIDs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, id := range p.GeofenceIDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, id, 10)
		}
		b = append(b, ']')
	}
	if b, ok = appendObject(append(b, `,"attributes":`...), p.Attributes, 0); !ok {
		return b, false
	}
	return append(b, '}'), true
}

// maxDepth bounds nesting on the fast path; deeper values (or a map that
// holds itself) are left to encoding/json, which reports cycles.
const maxDepth = 8

// appendObject writes the map with its keys sorted, as encoding/json does.
func appendObject(b []byte, m map[string]any, depth int) ([]byte, bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	ok := true
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendString(b, k); !ok {
			return b, false
		}
		if b, ok = appendValue(append(b, ':'), m[k], depth); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendArray writes a slice of values encoding/json writes as an array.
func appendArray[T any](b []byte, s []T, depth int) ([]byte, bool) {
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	ok := true
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendValue(b, v, depth); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendValue writes the value types device protocols produce: scalars,
// and maps and slices of them such as Traccar's network object.
func appendValue(b []byte, v any, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendString(b, x)
	case float64:
		return appendFloat(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case int32:
		return strconv.AppendInt(b, int64(x), 10), true
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10), true
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10), true
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10), true
	case uint64:
		return strconv.AppendUint(b, x, 10), true
	}
	if depth >= maxDepth {
		return b, false
	}
	switch x := v.(type) {
	case map[string]any:
		return appendObject(b, x, depth+1)
	case model.Attributes:
		return appendObject(b, x, depth+1)
	case []any:
		return appendArray(b, x, depth+1)
	case []map[string]any:
		return appendArray(b, x, depth+1)
	}
	return b, false
}

// appendString writes s quoted where encoding/json writes it unescaped:
// valid UTF-8 without control characters, the characters it escapes
// ("\<>&) and U+2028/U+2029.
func appendString(b []byte, s string) ([]byte, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return b, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !ascii && (!utf8.ValidString(s) || strings.ContainsAny(s, "\u2028\u2029")) {
		return b, false
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// appendFloat formats f like encoding/json: the shortest representation,
// exponent notation outside [1e-6, 1e21) with a short exponent. NaN and
// infinities are left to encoding/json, which refuses them.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-07 -> e-7, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendTime writes t as time.Time.MarshalJSON does (RFC 3339 with
// nanoseconds as needed); years it refuses are left to encoding/json.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	if y := t.Year(); y < 0 || y > 9999 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}
