package storage

import (
	"encoding/binary"
	"math"
	"time"
)

// idKey encodes an id as an 8-byte big-endian key.
func idKey(id int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(id))
	return b
}

// keyID decodes an idKey; malformed input (a damaged file) gives 0, which
// is never a valid id.
func keyID(b []byte) int64 {
	if len(b) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// The range of instants UnixNano can represent (years 1678 to 2262).
var (
	minKeyTime = time.Unix(0, math.MinInt64)
	maxKeyTime = time.Unix(0, math.MaxInt64)
)

func timeInKeyRange(t time.Time) bool {
	return !t.Before(minKeyTime) && !t.After(maxKeyTime)
}

// clampKeyTime maps t into the representable range, so a query from the
// zero time or to the far future still means "from the start"/"to the end".
func clampKeyTime(t time.Time) time.Time {
	switch {
	case t.Before(minKeyTime):
		return minKeyTime
	case t.After(maxKeyTime):
		return maxKeyTime
	}
	return t
}

// appendTime appends t as UnixNano with the sign bit flipped, so that
// unsigned byte order equals time order, including before 1970. t must be in
// the key range.
func appendTime(b []byte, t time.Time) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(t.UnixNano())^(1<<63))
}

// seriesKey is the key of a time-series record: deviceID, time, id.
func seriesKey(deviceID int64, t time.Time, id int64) []byte {
	b := make([]byte, 0, seriesKeyLen)
	b = binary.BigEndian.AppendUint64(b, uint64(deviceID))
	b = appendTime(b, t)
	return binary.BigEndian.AppendUint64(b, uint64(id))
}

const seriesKeyLen = 24
