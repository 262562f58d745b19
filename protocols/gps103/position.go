package gps103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Field indexes of `imei:<id>,<keyword>,<local yyMMddHHmm[ss]>,<rfid>,<F|L>,...`.
const (
	fKeyword = 1
	fLocal   = 2
	fRFID    = 3
	fSource  = 4 // "F": GPS fix follows; "L": cell (LAC/CID) only
	// GPS fix: <UTC hhmmss.sss>,<A|V>,<lat>,<N|S>,<lon>,<E|W>,<knots>,<course>,
	// then the extended tail <altitude>,<acc>,<door>,<fuel1%>,<fuel2%>,<temp>,
	// which cell-only frames carry at the same places.
	fUTC      = 5
	fValidity = 6
	fLat      = 7
	fLon      = 9
	fSpeed    = 11
	fCourse   = 12
	fAltitude = 13
	fIgnition = 14
	fDoor     = 15
	fFuel1    = 16
	fFuel2    = 17
	fTemp     = 18
	// Cell only: L,,,<lac hex>,,<cid hex>
	fLAC = 7
	fCID = 9
)

// Sources of the location fields.
const (
	sourceFix  = "F"
	sourceCell = "L"
)

// unsupported is the reason a well-formed frame is not decoded.
type unsupported string

func (u unsupported) Error() string { return string(u) }

// decodeRegular decodes the fields of an `imei:` frame into one position.
func (p *Protocol) decodeRegular(c *protocols.Conn, f []string) (*model.Position, error) {
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	var offset *time.Duration
	switch source := field(f, fSource); {
	case source == sourceFix && (field(f, fLat) != "" || field(f, fLon) != ""):
		var err error
		if offset, err = p.decodeFix(pos, f); err != nil {
			return nil, err
		}
	case source == sourceFix, source == sourceCell:
		// No fix: the ingest copies the last known location.
		p.noFix(c, pos, field(f, fLocal))
		if cell := cellOf(field(f, fLAC), field(f, fCID)); source == sourceCell && cell != nil {
			pos.Network = cell
		}
	default:
		return nil, unsupported("location source " + quoteShort(source) + " not decoded")
	}
	applyTail(pos.Attributes, f)
	if err := applyKeyword(pos.Attributes, f[fKeyword], field(f, fRFID)); err != nil {
		return nil, err
	}
	if offset != nil {
		stateOf(c).offset = offset
	}
	return pos, nil
}

// decodeFix reads the GPS fields, from the UTC time to the altitude, and
// returns the device's offset from UTC when the frame shows it.
func (p *Protocol) decodeFix(pos *model.Position, f []string) (*time.Duration, error) {
	if len(f) <= fLon+1 {
		return nil, model.Invalid("gps103: truncated GPS fields")
	}
	t, offset, err := frameTime(f[fLocal], f[fUTC], p.now.Now())
	if err != nil {
		return nil, err
	}
	pos.DeviceTime, pos.FixTime = t, t
	pos.Valid = f[fValidity] == "A"
	lat, latHem, lon, lonHem := f[fLat], f[fLat+1], f[fLon], f[fLon+1]
	if isHemisphere(lat, "N", "S") && isHemisphere(lon, "E", "W") {
		// Some firmware puts each hemisphere before its value.
		lat, latHem, lon, lonHem = latHem, lat, lonHem, lon
	}
	if pos.Latitude, err = coordinate(lat, latHem, "N", "S", 90); err != nil {
		return nil, err
	}
	if pos.Longitude, err = coordinate(lon, lonHem, "E", "W", 180); err != nil {
		return nil, err
	}
	for _, v := range []struct {
		dst *float64
		i   int
	}{{&pos.Speed, fSpeed}, {&pos.Course, fCourse}, {&pos.Altitude, fAltitude}} {
		if *v.dst, err = optionalDecimal(field(f, v.i)); err != nil {
			return nil, err
		}
	}
	return offset, nil
}

// noFix makes pos a position without location, stamped with the device's
// local time when this connection has shown its offset from UTC, else with
// the server's clock.
func (p *Protocol) noFix(c *protocols.Conn, pos *model.Position, local string) {
	pos.Outdated = true
	t := p.now.Now()
	if offset := stateOf(c).offset; offset != nil {
		if l, ok := localTime(local); ok {
			t = l.Add(-*offset)
		}
	}
	pos.DeviceTime, pos.FixTime = t, t
}

// connState is what a connection has learned from earlier frames.
type connState struct {
	// offset is the device's local time minus UTC, from the last frame
	// carrying both, or nil.
	offset *time.Duration
}

// stateOf returns the connection's state, creating it; a nil connection
// gets a throw-away one.
func stateOf(c *protocols.Conn) *connState {
	if c == nil {
		return &connState{}
	}
	if s, ok := c.State.(*connState); ok {
		return s
	}
	s := &connState{}
	c.State = s
	return s
}

// applyKeyword records what the keyword says: an alarm, ignition change,
// driver card or, for anything else but a plain report, a command answer
// or a photo announce, an event. It comes after the tail: "acc off" says
// more about the ignition than the ACC field sampled with it.
func applyKeyword(attrs model.Attributes, keyword, rfid string) error {
	if alarm := alarmOf(keyword); alarm != "" {
		attrs[keyAlarm] = alarm
	}
	key, raw := "", ""
	switch {
	case strings.HasPrefix(keyword, "T:"):
		key, raw = keyTemp1, keyword[2:]
	case strings.HasPrefix(keyword, "oil "):
		key, raw = keyFuel, keyword[4:]
	case alarmOf(keyword) != "":
	case keyword == "acc on":
		attrs[keyIgnition] = true
	case keyword == "acc off":
		attrs[keyIgnition] = false
	case keyword == "rfid":
		attrs[keyDriver] = rfid
		attrs[keyEvent] = keyword
	case keyword == "", keyword == "tracker", isCommandAnswer(keyword), isPhotoAnnounce(keyword):
	default:
		attrs[keyEvent] = keyword
	}
	if key == "" {
		return nil
	}
	v, err := decimal(raw)
	if err != nil {
		return err
	}
	attrs[key] = v
	return nil
}

// isPhotoAnnounce tells "vt<packets>", sent with a fix before the photo's
// "vr" packets.
func isPhotoAnnounce(keyword string) bool {
	n, ok := strings.CutPrefix(keyword, "vt")
	return ok && allDigits(n)
}

// applyTail reads the optional extended fields after the course.
func applyTail(attrs model.Attributes, f []string) {
	for key, i := range map[string]int{keyIgnition: fIgnition, keyDoor: fDoor} {
		if v := field(f, i); v == "0" || v == "1" {
			attrs[key] = v == "1"
		}
	}
	for key, i := range map[string]int{keyFuel1: fFuel1, keyFuel2: fFuel2} {
		if v, ok := strings.CutSuffix(field(f, i), "%"); ok {
			if x, err := decimal(v); err == nil {
				attrs[key] = x
			}
		}
	}
	if t, err := decimal(field(f, fTemp)); err == nil {
		attrs[keyTemp1] = t
	}
}

// field returns f[i], or "" past the end.
func field(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// quoteShort quotes s for a reason text, cut to 12 bytes.
func quoteShort(s string) string {
	if len(s) > 12 {
		s = s[:12]
	}
	return strconv.Quote(s)
}
