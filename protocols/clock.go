package protocols

import "time"

// Clock gives a decoder the time for frames that carry none of their own
// (and for replies that state it). Tests set a fixed one; nil is the
// system clock, so a zero protocol value still works.
type Clock func() time.Time

// Now is the clock's time in UTC.
func (c Clock) Now() time.Time {
	if c == nil {
		return time.Now().UTC()
	}
	return c().UTC()
}

// maxUnixMilli is the last millisecond of year 9999, the last time JSON
// (RFC 3339) can state.
const maxUnixMilli = 253402300799999

// UnixMilli is the UTC time of a device's millisecond timestamp. A value
// no JSON document can state (before 1970 or after year 9999: a corrupt
// field) gives the zero time, which ingest drops as a fix before 2000.
func UnixMilli(ms int64) time.Time {
	if ms < 0 || ms > maxUnixMilli {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
