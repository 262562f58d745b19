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
	case positive:
	case negative:
		v = -v
	default:
		return 0, model.Invalid("gps103: bad hemisphere %.4q", hemisphere)
	}
	return v, nil
}

// cellNetwork is Traccar's network object for one cell known only by LAC
// and CID (country and operator codes unknown, so 0).
func cellNetwork(lac, cid int64) map[string]any {
	tower := map[string]any{"mobileCountryCode": 0, "mobileNetworkCode": 0, "locationAreaCode": lac, "cellId": cid}
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []any{tower}}
}
