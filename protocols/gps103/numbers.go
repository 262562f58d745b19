package gps103

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

// decimal parses an unsigned or signed plain decimal ("12", "-0.5"); it
// refuses what strconv also takes (exponents, "NaN", "Inf", hex) since a
// device never sends those and they would not survive JSON.
func decimal(s string) (float64, error) {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case c == '.', (c == '-' || c == '+') && i == 0:
		default:
			digits = 0
			i = len(s)
		}
	}
	if digits == 0 {
		return 0, model.Invalid("gps103: bad number %.20q", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, model.Invalid("gps103: bad number %.20q", s)
	}
	return v, nil
}

// optionalDecimal is decimal with "" meaning 0.
func optionalDecimal(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	return decimal(s)
}

// coordinate converts NMEA-style (d)ddmm.mmmm and its hemisphere letter.
// An empty hemisphere, which some firmware sends, counts as positive (as
// Traccar reads it).
func coordinate(value, hemisphere, positive, negative string, limit float64) (float64, error) {
	dot := len(value)
	for i := 0; i < len(value); i++ {
		if value[i] == '.' {
			dot = i
			break
		}
	}
	if dot < 3 || !allDigits(value[:dot]) || (dot < len(value) && !allDigits(value[dot+1:])) {
		return 0, model.Invalid("gps103: bad coordinate %.20q", value)
	}
	deg, _ := strconv.ParseFloat(value[:dot-2], 64)
	min, _ := strconv.ParseFloat(value[dot-2:], 64)
	v := deg + min/60
	if min >= 60 || v > limit {
		return 0, model.Invalid("gps103: coordinate out of range %.20q", value)
	}
	switch hemisphere {
	case positive, "":
	case negative:
		v = -v
	default:
		return 0, model.Invalid("gps103: bad hemisphere %.4q", hemisphere)
	}
	return v, nil
}

// isHemisphere tells whether s is one of the two hemisphere letters.
func isHemisphere(s, positive, negative string) bool { return s == positive || s == negative }

// cellOf is the network of a cell-only frame's hex LAC and CID, or nil
// when they are absent or malformed.
func cellOf(lac, cid string) map[string]any {
	l, err := strconv.ParseUint(lac, 16, 16)
	if err != nil {
		return nil
	}
	c, err := strconv.ParseUint(cid, 16, 32)
	if err != nil {
		return nil
	}
	return cellNetwork(int(l), int64(c))
}

// cellNetwork is Traccar's network object for one cell known only by LAC
// and CID (country and operator codes unknown, so 0), shaped as gt06's.
func cellNetwork(lac int, cid int64) map[string]any {
	tower := map[string]any{"mobileCountryCode": 0, "mobileNetworkCode": 0, "locationAreaCode": lac, "cellId": cid}
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{tower}}
}
