package h02

import (
	"strconv"
	"strings"
)

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// isStatus reports whether s is the 8-hex-digit status word.
func isStatus(s string) bool { return len(s) == 8 && isHex(s) }

// integer parses an optionally negative decimal integer of at most 9 digits.
func integer(s string) (int, bool) {
	digits := strings.TrimPrefix(s, "-")
	if !isDigits(digits) || len(digits) > 9 {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// decimal parses "123", "12.5" or "-0.5"; unlike strconv.ParseFloat it
// refuses exponents, "Inf" and "NaN".
func decimal(s string) (float64, bool) {
	body := strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(body, ".")
	if !isDigits(whole) || frac != "" && !isDigits(frac) || len(body) > 20 {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// coordinate parses the H02 text forms of a coordinate with its hemisphere:
// "ddmm.mmmm" (any number of degree digits), "-dd-mm.mmmm", or "ddmmmmmm"
// without a point (the last four digits are the minutes' fraction).
func coordinate(value, hemisphere string) (float64, bool) {
	var deg, min string
	switch {
	case strings.HasPrefix(value, "-"):
		var ok bool
		if deg, min, ok = strings.Cut(value[1:], "-"); !ok {
			return 0, false
		}
	case strings.Contains(value, "."):
		// "dmm.mmmm": the degree digits may be absent ("38.6508" is 0°38.6508').
		dot := strings.IndexByte(value, '.')
		if dot < 2 {
			return 0, false
		}
		deg, min = value[:dot-2], value[dot-2:]
		if deg == "" {
			deg = "0"
		}
	default:
		if len(value) < 7 {
			return 0, false
		}
		n := len(value)
		deg, min = value[:n-6], value[n-6:n-4]+"."+value[n-4:]
	}
	d, ok1 := integer(deg)
	m, ok2 := decimal(min)
	if !ok1 || !ok2 || d < 0 || m < 0 {
		return 0, false
	}
	v := float64(d) + m/60
	switch hemisphere {
	case "S", "W":
		v = -v
	case "N", "E":
	default:
		return 0, false
	}
	return v, true
}

// hhmmss parses an optional time field; empty is midnight.
func hhmmss(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) != 6 || !isDigits(s) {
		return 0, false
	}
	v, _ := strconv.Atoi(s)
	return v, true
}

// hexInt parses up to 7 hex digits (LAC and CID values).
func hexInt(s string) (int, bool) {
	if !isHex(s) || len(s) > 7 {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 16, 32)
	return int(v), err == nil
}

// parseStatus parses a status word already checked by isStatus.
func parseStatus(s string) uint32 {
	v, _ := strconv.ParseUint(s, 16, 32)
	return uint32(v)
}
