package tk103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// knotsPerKmh converts the device's km/h to the knots positions store.
const knotsPerKmh = 1 / 1.852

// decodeLocation decodes the GPS body shared by most types:
//
//	[<data digits>]yyMMdd A ddmm.mmmmN dddmm.mmmmE <speed km/h, 5 chars> HHmmss <course, 6 chars> <io flags, 8 chars> L<odometer hex>
//
// the BQ81 form `,ALARM,<kind>,<n>,` before the date, and the comma form
// with ddMMyy dates and free-width numbers. Fields the device leaves out
// (flags, odometer) are simply absent from the position. It sets h.data.
func decodeLocation(h *header) (*model.Position, error) {
	c := &cursor{s: h.body}
	alarmForm := strings.HasPrefix(h.body, ",ALARM,")
	if alarmForm {
		c.i = len(",ALARM,")
		h.data = c.run(1, isDigit)
		if !c.skip(',') || c.run(unlimited, isDigit) == "" || !c.skip(',') {
			return nil, invalid(*h, "alarm header")
		}
	} else {
		c.skip(',')
		skipSource(c)
	}
	digits := c.run(unlimited, isDigit)
	if len(digits) < 6 {
		return nil, invalid(*h, "date")
	}
	if !alarmForm {
		h.data = digits[:len(digits)-6]
	}
	date := digits[len(digits)-6:]
	c.skip(',')
	validity := c.oneOf("AV")
	c.skip(',')
	lat, err := coordinate(c, "NS", 90)
	if err != nil {
		return nil, invalid(*h, "latitude")
	}
	lon, err := coordinate(c, "EW", 180)
	if err != nil {
		return nil, invalid(*h, "longitude")
	}
	speed, err := decimal(c.run(5, isDecimal))
	if err != nil {
		return nil, invalid(*h, "speed")
	}
	skipSpeedTail(c)
	clock := c.run(6, isDigit)
	if validity == 0 || len(clock) != 6 {
		return nil, invalid(*h, "validity or time")
	}
	c.skip(',')

	pos := &model.Position{Protocol: Name, Valid: validity == 'A', Latitude: lat, Longitude: lon,
		Speed: speed * knotsPerKmh, Attributes: model.Attributes{}}
	pos.FixTime = frameTime(date, clock, h.comma)
	pos.DeviceTime = pos.FixTime
	if pos.Course, err = courseAndFlags(c, pos.Attributes); err != nil {
		return nil, invalid(*h, "course")
	}
	if t, ok := temperature(h.body); ok {
		pos.Attributes["temp1"] = t
	}
	applyType(pos.Attributes, h.typ, h.data)
	return pos, nil
}

// skipSource drops the `G,<n>,` some firmware puts before the date (BP02).
func skipSource(c *cursor) {
	rest := c.rest()
	if len(rest) < 4 || rest[0] < 'A' || rest[0] > 'Z' || rest[1] != ',' {
		return
	}
	j := 2
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	if j > 2 && j < len(rest) && rest[j] == ',' {
		c.i += j + 1
	}
}

// temperature reads the `+ddd.d` (or `-ddd.d`) sensor value some devices
// end the frame with.
func temperature(body string) (float64, bool) {
	if len(body) < len("+000.0") {
		return 0, false
	}
	t := body[len(body)-len("+000.0"):]
	if t[0] != '+' && t[0] != '-' || t[4] != '.' || !isDigit(t[1]) || !isDigit(t[2]) || !isDigit(t[3]) || !isDigit(t[5]) {
		return 0, false
	}
	v, err := strconv.ParseFloat(t, 64)
	return v, err == nil
}

// skipSpeedTail drops the digits of a speed wider than five bytes, which
// only the comma form has (a comma follows them).
func skipSpeedTail(c *cursor) {
	j := c.i
	for j < len(c.s) && isDigit(c.s[j]) {
		j++
	}
	if j < len(c.s) && c.s[j] == ',' {
		c.i = j + 1
	}
}

// frameTime builds the UTC time from yyMMdd (ddMMyy in the comma form) and
// HHmmss. Out-of-range fields roll over (month 13 is January of the next
// year), as in Traccar's lenient calendar, rather than losing the frame.
func frameTime(date, clock string, dayFirst bool) time.Time {
	y, mo, d := atoi2(date[0:2]), atoi2(date[2:4]), atoi2(date[4:6])
	if dayFirst {
		y, d = d, y
	}
	return time.Date(2000+y, time.Month(mo), d, atoi2(clock[0:2]), atoi2(clock[2:4]), atoi2(clock[4:6]), 0, time.UTC)
}

// atoi2 converts two ASCII digits already checked by the cursor.
func atoi2(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }

// coordinate reads (d)ddmm.mmmm, its hemisphere letter from hemispheres
// (positive first) and an optional comma.
func coordinate(c *cursor, hemispheres string, limit float64) (float64, error) {
	c.run(unlimited, func(b byte) bool { return b == ' ' })
	// Minutes take the last two digits before the point; some firmware
	// drops a zero degree part altogether ("45.78950E").
	whole := c.run(unlimited, isDigit)
	if len(whole) < 2 || !c.skip('.') {
		return 0, model.ErrInvalid
	}
	frac := c.run(unlimited, isDigit)
	if frac == "" {
		return 0, model.ErrInvalid
	}
	var deg float64
	if len(whole) > 2 {
		deg, _ = strconv.ParseFloat(whole[:len(whole)-2], 64)
	}
	min, _ := strconv.ParseFloat(whole[len(whole)-2:]+"."+frac, 64)
	v := deg + min/60
	if min >= 60 || v > limit {
		return 0, model.ErrInvalid
	}
	switch c.oneOf(hemispheres) {
	case hemispheres[0]:
	case hemispheres[1]:
		v = -v
	default:
		return 0, model.ErrInvalid
	}
	c.skip(',')
	return v, nil
}

// decimal parses a space-padded device decimal ("004.7", " 12.5").
func decimal(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, " ") {
		return 0, model.ErrInvalid
	}
	return strconv.ParseFloat(s, 64)
}

func invalid(h header, what string) error {
	return model.Invalid("tk103: %s frame: bad %s", h.typ, what)
}
