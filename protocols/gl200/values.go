package gl200

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// errShort reports a message with fewer fields than its layout needs.
var errShort = model.Invalid("gl200: message ends before its layout does")

// fields reads a text message's comma-separated fields left to right. The
// first malformed or missing field is kept in err and reads after it give
// zero values, so a decoder checks err once at its end.
type fields struct {
	v   []string
	i   int
	err error
}

func (f *fields) fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// next returns the next field.
func (f *fields) next() string {
	if f.i >= len(f.v) {
		f.fail(errShort)
		f.i++
		return ""
	}
	f.i++
	return f.v[f.i-1]
}

// peek returns the field k places ahead without consuming it.
func (f *fields) peek(k int) string {
	if f.i+k >= len(f.v) {
		f.fail(errShort)
		return ""
	}
	return f.v[f.i+k]
}

func (f *fields) skip(n int) { f.i += n }

// int parses a decimal field.
func (f *fields) int(s string) int {
	n, err := parseInt(s)
	f.fail(err)
	return n
}

// hex parses a hexadecimal field.
func (f *fields) hex(s string) int64 {
	n, err := parseHex(s)
	f.fail(err)
	return n
}

// float parses a decimal fraction.
func (f *fields) float(s string) float64 {
	x, err := parseFloat(s)
	f.fail(err)
	return x
}

// time parses a yyyyMMddHHmmss field (UTC).
func (f *fields) time(s string) time.Time {
	t, err := parseTime(s)
	f.fail(err)
	return t
}

// sentTime is the send time of a message, the next-to-last field, zero
// when it is not a time.
func sentTime(v []string) time.Time {
	if len(v) < 2 {
		return time.Time{}
	}
	t, _ := parseTime(v[len(v)-2])
	return t
}

var errNumber = errors.New("gl200: malformed number")

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isHex(b byte) bool { return isDigit(b) || b >= 'A' && b <= 'F' || b >= 'a' && b <= 'f' }

// allOf reports whether s is non-empty and every byte satisfies ok.
func allOf(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return s != ""
}

// parseInt parses an optionally signed decimal of at most 18 digits.
func parseInt(s string) (int, error) {
	d := strings.TrimPrefix(s, "-")
	if len(d) > 18 || !allOf(d, isDigit) {
		return 0, model.Invalid("gl200: %q is not a whole number", s)
	}
	n, _ := strconv.Atoi(s)
	return n, nil
}

// parseHex parses up to 16 hex digits.
func parseHex(s string) (int64, error) {
	if len(s) > 16 || !allOf(s, isHex) {
		return 0, model.Invalid("gl200: %q is not hexadecimal", s)
	}
	n, _ := strconv.ParseUint(s, 16, 64)
	return int64(n), nil
}

// parseFloat parses a plain decimal fraction (no exponent, NaN or Inf,
// which a position could not store).
func parseFloat(s string) (float64, error) {
	d := strings.TrimPrefix(s, "-")
	digits := 0
	for i := 0; i < len(d); i++ {
		switch {
		case isDigit(d[i]):
			digits++
		case d[i] != '.' || strings.IndexByte(d[i+1:], '.') >= 0:
			digits = -1 << 20
		}
	}
	if digits <= 0 || digits > 18 {
		return 0, model.Invalid("gl200: %q is not a number", s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, errNumber
	}
	return x, nil
}

const timeLayout = "20060102150405"

// parseTime parses a yyyyMMddHHmmss time in UTC.
func parseTime(s string) (time.Time, error) {
	if len(s) != len(timeLayout) || !allOf(s, isDigit) {
		return time.Time{}, model.Invalid("gl200: %q is not a yyyyMMddHHmmss time", s)
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, model.Invalid("gl200: bad time %q", s)
	}
	return t, nil
}

// hours converts a "hhhhh:mm:ss" hour meter (minutes and seconds optional)
// to milliseconds, Traccar's unit for "hours".
func hours(f *fields, s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	var ms int64
	for k, part := range strings.SplitN(s, ":", 3) {
		ms += int64(f.int(part)) * [...]int64{3600, 60, 1}[k]
	}
	return ms * 1000, true
}
