package tk103

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// courseAndFlags reads the course and, when present, the status block
// `<charge 0|1><ignition 0|1><io hex x3><fuel hex x3>L<odometer hex>`.
// The course is six bytes wide before that block (two digits on some
// firmware), free-width otherwise.
func courseAndFlags(c *cursor, attrs model.Attributes) (float64, error) {
	for _, width := range []int{6, 2} {
		rest := c.rest()
		if len(rest) < width || strings.IndexFunc(rest[:width], func(r rune) bool { return r > 0x7f || !isDecimal(byte(r)) }) >= 0 {
			continue
		}
		block := strings.TrimPrefix(rest[width:], ",")
		if status, ok := statusBlock(block); ok {
			course, err := decimal(rest[:width])
			if err != nil {
				return 0, err
			}
			applyStatus(attrs, status)
			return course, nil
		}
	}
	whole := c.run(unlimited, isDigit)
	if whole == "" || !c.skip('.') {
		return 0, nil
	}
	return strconv.ParseFloat(whole+"."+c.run(unlimited, isDigit), 64)
}

// statusBlock returns the status block at the start of s, if s has one.
func statusBlock(s string) (string, bool) {
	const fixed = len("01000000L")
	if len(s) <= fixed || s[fixed-1] != 'L' || !isHex(s[fixed]) {
		return "", false
	}
	if s[0] != '0' && s[0] != '1' || s[1] != '0' && s[1] != '1' {
		return "", false
	}
	for i := 2; i < fixed-1; i++ {
		if !isHex(s[i]) {
			return "", false
		}
	}
	end := fixed
	for end < len(s) && isHex(s[end]) {
		end++
	}
	return s[:end], true
}

// applyStatus decodes a block found by statusBlock. Optional lines (relay
// blocked, hs/ls inputs, door) are recorded only when active, as Traccar
// does by default.
func applyStatus(attrs model.Attributes, s string) {
	bit := func(i, n int) bool { v, _ := strconv.ParseUint(s[i:i+1], 16, 8); return v&(1<<n) != 0 }
	flag := func(on bool) int64 {
		if on {
			return 1
		}
		return 0
	}
	attrs["charge"] = s[0] == '0'
	attrs["ignition"] = s[1] == '1'
	attrs["in2"] = flag(bit(2, 0))
	attrs["panic"] = flag(bit(2, 1))
	attrs["out2"] = flag(bit(2, 2))
	active := map[string]bool{
		"blocked": bit(2, 3),
		"hs3":     bit(3, 0), "hs2": bit(3, 1), "hs1": bit(3, 2), "door": bit(3, 3),
		"ls3": bit(4, 1), "ls2": bit(4, 2), "ls1": bit(4, 3),
	}
	for k, on := range active {
		if on {
			attrs[k] = int64(1)
		}
	}
	fuel, _ := strconv.ParseInt(s[5:8], 16, 32)
	attrs["fuel"] = fuel
	if len(s) <= len("01000000L") {
		return // the flags alone (cell list frames)
	}
	// Up to 8 hex digits on real devices; a longer run is clamped, not wrapped.
	if odometer, err := strconv.ParseInt(s[9:], 16, 64); err == nil {
		attrs["odometer"] = odometer
	}
}
