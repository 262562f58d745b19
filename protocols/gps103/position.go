package gps103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Field indexes of `imei:<id>,<keyword>,<local yyMMddHHmm[ss]>,<rfid>,<F|L>,...`.
const (
	fKeyword = 1
	fLocal   = 2
	fRFID    = 3
	fSource  = 4 // "F": GPS fix follows; "L": cell (LAC/CID) only
	// GPS fix: <UTC hhmmss.sss>,<A|V>,<lat>,<N|S>,<lon>,<E|W>,<knots>,<course>,
	// then the extended tail <altitude>,<acc>,<door>,<fuel1%>,<fuel2%>,<temp>.
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

// decodeRegular decodes the fields of an `imei:` frame into one position.
func (p *Protocol) decodeRegular(f []string) (*model.Position, error) {
	now := p.now.Now()
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	applyKeyword(pos.Attributes, f[fKeyword], field(f, fRFID))
	if err := applyKeywordValue(pos.Attributes, f[fKeyword]); err != nil {
		return nil, err
	}

	if field(f, fSource) != "F" {
		// No fix: the ingest copies the last known location.
		pos.Outdated = true
		pos.DeviceTime, pos.FixTime = now, now
		if lac, err := strconv.ParseUint(field(f, fLAC), 16, 16); err == nil {
			if cid, err := strconv.ParseUint(field(f, fCID), 16, 32); err == nil {
				pos.Network = cellNetwork(int64(lac), int64(cid))
			}
		}
		return pos, nil
	}
	if len(f) <= fLon+1 {
		return nil, model.Invalid("gps103: truncated GPS fields")
	}
	t, err := frameTime(f[fLocal], f[fUTC], now)
	if err != nil {
		return nil, err
	}
	pos.DeviceTime, pos.FixTime = t, t
	pos.Valid = f[fValidity] == "A"
	if pos.Latitude, err = coordinate(f[fLat], f[fLat+1], "N", "S", 90); err != nil {
		return nil, err
	}
	if pos.Longitude, err = coordinate(f[fLon], f[fLon+1], "E", "W", 180); err != nil {
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
	applyTail(pos.Attributes, f)
	return pos, nil
}

// applyKeyword records what the keyword says: an alarm, ignition change,
// driver card or, for anything else but a plain "tracker" report, an event.
func applyKeyword(attrs model.Attributes, keyword, rfid string) {
	if alarm := alarmOf(keyword); alarm != "" {
		attrs[keyAlarm] = alarm
		return
	}
	switch keyword {
	case "tracker":
	case "acc on":
		attrs[keyIgnition] = true
	case "acc off":
		attrs[keyIgnition] = false
	case "rfid":
		attrs[keyDriver] = rfid
		attrs[keyEvent] = keyword
	default:
		attrs[keyEvent] = keyword
	}
}

// applyKeywordValue reads the value carried by "T:<temp>" and "oil <level>".
func applyKeywordValue(attrs model.Attributes, keyword string) error {
	key, raw := keyTemp1, ""
	if v, ok := strings.CutPrefix(keyword, "T:"); ok {
		raw = v
	} else if v, ok := strings.CutPrefix(keyword, "oil "); ok {
		key, raw = keyFuelLevel, v
	} else {
		return nil
	}
	v, err := decimal(raw)
	if err != nil {
		return err
	}
	attrs[key] = v
	return nil
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
	if t, err := strconv.ParseInt(field(f, fTemp), 10, 32); err == nil {
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

// frameTime combines the device's local date and hour:minute with the UTC
// time field: the seconds come from UTC and the local-minus-UTC offset,
// folded into (-12 h, +12 h], is subtracted. Without a UTC field the local
// stamp is taken as is; without a local stamp the UTC time is placed on the
// current UTC day.
func frameTime(local, utc string, now time.Time) (time.Time, error) {
	local = strings.Map(func(r rune) rune {
		if r == '/' || r == ':' || r == ' ' {
			return -1
		}
		return r
	}, local)
	var uh, um, us int
	hasUTC := len(utc) >= 6 && allDigits(utc[:6])
	if hasUTC {
		uh, um, us = atoi2(utc[0:2]), atoi2(utc[2:4]), atoi2(utc[4:6])
	}
	if !allDigits(local) || (len(local) != 10 && len(local) != 12) {
		if !hasUTC {
			return now, nil
		}
		t := time.Date(now.Year(), now.Month(), now.Day(), uh, um, us, 0, time.UTC)
		if t.Sub(now) > 12*time.Hour {
			t = t.AddDate(0, 0, -1)
		}
		return t, validClock(uh, um, us)
	}
	y, mo, d := atoi2(local[0:2]), atoi2(local[2:4]), atoi2(local[4:6])
	h, mi, sec := atoi2(local[6:8]), atoi2(local[8:10]), 0
	if len(local) == 12 {
		sec = atoi2(local[10:12])
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, model.Invalid("gps103: bad date %q", local)
	}
	if err := validClock(h, mi, sec); err != nil {
		return time.Time{}, err
	}
	if !hasUTC {
		return time.Date(2000+y, time.Month(mo), d, h, mi, sec, 0, time.UTC), nil
	}
	if err := validClock(uh, um, us); err != nil {
		return time.Time{}, err
	}
	delta := (h-uh)*60 + mi - um
	if delta <= -12*60 {
		delta += 24 * 60
	} else if delta > 12*60 {
		delta -= 24 * 60
	}
	t := time.Date(2000+y, time.Month(mo), d, h, mi, us, 0, time.UTC)
	return t.Add(-time.Duration(delta) * time.Minute), nil
}

func validClock(h, m, s int) error {
	if h > 23 || m > 59 || s > 59 {
		return model.Invalid("gps103: bad time %02d:%02d:%02d", h, m, s)
	}
	return nil
}

// atoi2 converts two ASCII digits already checked by allDigits.
func atoi2(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }
