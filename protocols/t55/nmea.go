package t55

import (
	"strconv"
	"strings"
	"time"
)

// checksum checks the NMEA checksum of s (which begins with '$'): the XOR
// of the bytes between '$' and '*', written after '*' as two hex digits.
// Some devices print spaces around '*' ("A * 72"), which the sum leaves
// out; Traccar's extended RMC has more fields after the checksum.
func checksum(s string) (valid, present bool) {
	star := strings.IndexByte(s, '*')
	if star < 0 || len(s) == 0 || s[0] != '$' {
		return false, false
	}
	digits, _, _ := strings.Cut(s[star+1:], ",")
	want, err := strconv.ParseUint(strings.TrimSpace(digits), 16, 8)
	var sum byte
	for _, c := range []byte(strings.TrimRight(s[1:star], " ")) {
		sum ^= c
	}
	return err == nil && len(strings.TrimSpace(digits)) == 2 && byte(want) == sum, true
}

// data is the sentence before its checksum, split into fields.
func data(s string) []string {
	if star := strings.IndexByte(s, '*'); star >= 0 {
		s = s[:star]
	}
	return strings.Split(strings.TrimRight(s, " "), ",")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

// clock reads "hhmmss" with optional fractional seconds, which are dropped
// (as Traccar does).
func clock(s string) (h, m, sec int, ok bool) {
	if len(s) < 6 || !isDigits(s[:6]) || len(s) > 6 && (s[6] != '.' || len(s) > 7 && !isDigits(s[7:])) {
		return 0, 0, 0, false
	}
	h, _ = strconv.Atoi(s[:2])
	m, _ = strconv.Atoi(s[2:4])
	sec, _ = strconv.Atoi(s[4:6])
	return h, m, sec, h < 24 && m < 60 && sec < 60
}

// dateTime combines a "ddmmyy" date (years 2000-2099, as Traccar reads
// them) with a time of day.
func dateTime(ddmmyy, hhmmss string) (time.Time, bool) {
	h, m, s, ok := clock(hhmmss)
	if !ok || len(ddmmyy) != 6 || !isDigits(ddmmyy) {
		return time.Time{}, false
	}
	d, _ := strconv.Atoi(ddmmyy[:2])
	mo, _ := strconv.Atoi(ddmmyy[2:4])
	y, _ := strconv.Atoi(ddmmyy[4:])
	t := time.Date(2000+y, time.Month(mo), d, h, m, s, 0, time.UTC)
	return t, t.Day() == d && int(t.Month()) == mo
}

// timeOfDay dates a time of day (sentences without a date): today, or
// yesterday when that would put it more than an hour ahead of the server's
// clock (a fix sent before midnight, read after), or tomorrow when it is
// just past midnight by a device clock ahead of the server's.
func (p *Protocol) timeOfDay(hhmmss string) (time.Time, bool) {
	h, m, s, ok := clock(hhmmss)
	if !ok {
		return time.Time{}, false
	}
	now := p.now.Now()
	t := time.Date(now.Year(), now.Month(), now.Day(), h, m, s, 0, time.UTC)
	switch {
	case t.Sub(now) > time.Hour:
		t = t.AddDate(0, 0, -1)
	case now.Sub(t) > 23*time.Hour:
		t = t.AddDate(0, 0, 1)
	}
	return t, true
}

// coordinate reads NMEA "dddmm.mmmm" (one to three degree digits) and its
// hemisphere letter, pos or neg; a latitude beyond 90 or a longitude
// beyond 180 degrees is refused.
func coordinate(field, hemisphere, pos, neg string) (v float64, ok bool) {
	dot := strings.IndexByte(field, '.')
	if dot < 3 || dot > 5 || !isDigits(field[:dot]) || dot+1 < len(field) && !isDigits(field[dot+1:]) ||
		hemisphere != pos && hemisphere != neg {
		return 0, false
	}
	deg, _ := strconv.Atoi(field[:dot-2])
	minutes, err := strconv.ParseFloat(field[dot-2:], 64)
	v = float64(deg) + minutes/60
	if err != nil || minutes >= 60 || pos == "N" && v > 90 || v > 180 {
		return 0, false
	}
	if hemisphere == neg {
		v = -v
	}
	return v, true
}

// degrees reads signed decimal degrees within limit, negated in the
// southern or western hemisphere.
func degrees(v string, limit float64, negative bool) (float64, bool) {
	x, ok := number(v)
	if !ok || x < -limit || x > limit {
		return 0, false
	}
	if negative {
		x = -x
	}
	return x, true
}

// number parses a plain decimal ("12", "-3.5", "000."): no exponent, no
// infinities.
func number(s string) (float64, bool) {
	t := strings.TrimPrefix(s, "-")
	if t == "" || len(t) > 24 || t[0] == '.' || strings.Count(t, ".") > 1 || !isDigits(strings.Replace(t, ".", "", 1)+"0") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// optional parses an empty field as 0.
func optional(s string) (float64, bool) {
	if s == "" {
		return 0, true
	}
	return number(s)
}
