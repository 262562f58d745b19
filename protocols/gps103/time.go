package gps103

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// frameTime combines the device's local date and hour:minute with the UTC
// time field: the seconds come from UTC and the local-minus-UTC offset,
// folded into (-12 h, +12 h], is subtracted and returned. Without a UTC
// field the local stamp is taken as is; without a local stamp the UTC time
// is placed on the current UTC day. offset is nil unless both are there.
func frameTime(local, utc string, now time.Time) (t time.Time, offset *time.Duration, err error) {
	var uh, um, us int
	hasUTC := len(utc) >= 6 && allDigits(utc[:6])
	if hasUTC {
		uh, um, us = atoi2(utc[0:2]), atoi2(utc[2:4]), atoi2(utc[4:6])
		if err := validClock(uh, um, us); err != nil {
			return time.Time{}, nil, err
		}
	}
	stamp := compactStamp(local)
	if !allDigits(stamp) || (len(stamp) != 10 && len(stamp) != 12) {
		if !hasUTC {
			return now, nil, nil
		}
		t := time.Date(now.Year(), now.Month(), now.Day(), uh, um, us, 0, time.UTC)
		if t.Sub(now) > 12*time.Hour {
			t = t.AddDate(0, 0, -1)
		}
		return t, nil, nil
	}
	lt, err := parseStamp(stamp)
	if err != nil || !hasUTC {
		return lt, nil, err
	}
	delta := (lt.Hour()-uh)*60 + lt.Minute() - um
	if delta <= -12*60 {
		delta += 24 * 60
	} else if delta > 12*60 {
		delta -= 24 * 60
	}
	d := time.Duration(delta) * time.Minute
	lt = time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), lt.Minute(), us, 0, time.UTC)
	return lt.Add(-d), &d, nil
}

// localTime reads a local stamp yyMMddHHmm[ss], as a time in UTC's clothes;
// ok is false when there is none (cell-only frames often carry zeros).
func localTime(local string) (t time.Time, ok bool) {
	stamp := compactStamp(local)
	if !allDigits(stamp) || (len(stamp) != 10 && len(stamp) != 12) {
		return time.Time{}, false
	}
	t, err := parseStamp(stamp)
	return t, err == nil
}

// compactStamp drops the separators of "13/02/27 23:40".
func compactStamp(local string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ':' || r == ' ' {
			return -1
		}
		return r
	}, local)
}

// parseStamp reads yyMMddHHmm[ss] already checked to be 10 or 12 digits.
func parseStamp(stamp string) (time.Time, error) {
	y, mo, d := atoi2(stamp[0:2]), atoi2(stamp[2:4]), atoi2(stamp[4:6])
	h, mi, sec := atoi2(stamp[6:8]), atoi2(stamp[8:10]), 0
	if len(stamp) == 12 {
		sec = atoi2(stamp[10:12])
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, model.Invalid("gps103: bad date %q", stamp)
	}
	if err := validClock(h, mi, sec); err != nil {
		return time.Time{}, err
	}
	return time.Date(2000+y, time.Month(mo), d, h, mi, sec, 0, time.UTC), nil
}

func validClock(h, m, s int) error {
	if h > 23 || m > 59 || s > 59 {
		return model.Invalid("gps103: bad time %02d:%02d:%02d", h, m, s)
	}
	return nil
}

// atoi2 converts two ASCII digits already checked by allDigits.
func atoi2(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }
