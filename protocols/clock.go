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
