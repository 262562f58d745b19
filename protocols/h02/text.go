package h02

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// decodeText handles "*XX,<id>,<type>,...#" frames. Fields are positional;
// f[0] is "*" and the maker code, f[1] the device id, f[2] the type.
func (p *Protocol) decodeText(frame []byte) (protocols.Result, error) {
	s := strings.TrimSuffix(strings.TrimSpace(string(frame)), "#")
	head := strings.SplitN(s, ",", 4)
	if len(head) < 3 {
		res := protocols.Result{Unsupported: "text frame without a message type"}
		if len(head) == 2 {
			res.UniqueID = head[1]
		}
		return res, nil
	}
	id, typ := head[1], head[2]
	if typ == "SMS" {
		// The device's answer to an SMS-style command: free text that may
		// hold commas and line breaks.
		res := p.decodeSMS(head[3:])
		res.UniqueID = id
		return res, nil
	}
	f := strings.Split(s, ",")
	var res protocols.Result
	var err error
	switch typ {
	case "V0", "HTBT":
		res = p.decodeHeartbeat(f)
	case "NBR":
		res, err = p.decodeNBR(f)
	case "LINK":
		res, err = p.decodeLink(f)
	case "V3":
		res, err = p.decodeV3(f)
	case "VP1":
		res, err = p.decodeVP1(f)
	default:
		if strings.HasPrefix(typ, "V") && len(typ) > 1 {
			res, err = p.decodeLocation(f)
		} else {
			res.Unsupported = "message type " + strconv.Quote(typ) + " not decoded"
		}
	}
	if err != nil {
		return protocols.Result{UniqueID: id}, fmt.Errorf("h02: %s frame from %q: %w", typ, id, err)
	}
	res.UniqueID = id
	return res, nil
}

// replyV4 is the server's confirmation of V1 and NBR frames, sent once
// their position is stored.
func (p *Protocol) replyV4(id, typ string) []byte {
	if id == "" {
		return nil
	}
	return []byte("*HQ," + id + ",V4," + typ + "," + p.now.Now().Format("20060102150405") + "#")
}

// decodeHeartbeat answers with the frame head. A heartbeat with a battery
// level is stored, so the answer waits for it (Ack); a bare one is answered
// at once.
func (p *Protocol) decodeHeartbeat(f []string) protocols.Result {
	echo := []byte(strings.Join(f[:3], ",") + "#")
	if len(f) == 3 {
		return protocols.Result{Reply: echo}
	}
	if level, ok := integer(f[3]); ok && level >= 0 && f[2] == "HTBT" {
		pos := p.outdated(time.Time{})
		pos.Attributes["batteryLevel"] = level
		return protocols.Result{Positions: []*model.Position{pos}, Ack: echo}
	}
	// Fields no document describes: answering would drop them.
	return protocols.Result{Unsupported: f[2] + " heartbeat with unknown fields"}
}

// decodeSMS stores the device's text answer as a command result on an
// outdated position; the protocol defines no answer to it.
func (p *Protocol) decodeSMS(rest []string) protocols.Result {
	if len(rest) == 0 || strings.TrimSpace(rest[0]) == "" {
		return protocols.Result{Unsupported: "SMS frame without text"}
	}
	pos := p.outdated(time.Time{})
	pos.Attributes["result"] = rest[0]
	return protocols.Result{Positions: []*model.Position{pos}, CommandResult: rest[0]}
}

// decodeLocation decodes the location frames (V1, V2, V5, V6, V8, VI1, V19,
// command answers "V4,<answer>,..."): [time,] validity, latitude, N/S,
// longitude, E/W, speed (knots), course, [battery,] date, [three SIM
// fields,] status, then either odometer,temperature,fuel,altitude,lac,cid or
// free values. A frame without a fix (empty or zero coordinates) still
// carries the status word: it becomes an outdated position.
func (p *Protocol) decodeLocation(f []string) (protocols.Result, error) {
	typ := f[2]
	h, fixed := anchor(f)
	if fixed && noFix(f[h-1]) && noFix(f[h+1]) {
		fixed = false
	}
	timeAt := h - 3
	if h < 0 || typ == "V4" && timeAt < 4 || typ != "V4" && timeAt != 3 || h+3 >= len(f) {
		return protocols.Result{Unsupported: typ + " frame of an unknown layout"}, nil
	}
	clock, ok := hhmmss(f[timeAt])
	if !ok {
		return protocols.Result{}, fmt.Errorf("bad time %q", f[timeAt])
	}
	valid := false
	switch v := f[h-2]; {
	case v == "A":
		valid = true
	case v == "" || v == "B" || v == "V":
	case isDigits(v): // a coding scheme instead of a validity flag
		valid = true
	default:
		return protocols.Result{}, fmt.Errorf("bad validity %q", v)
	}
	var lat, lon, speed, course float64
	if fixed {
		var okLat, okLon, okSpeed bool
		lat, okLat = coordinate(f[h-1], f[h])
		lon, okLon = coordinate(f[h+1], f[h+2])
		speed, okSpeed = decimal(strings.TrimLeft(f[h+3], " "))
		if !okLat || !okLon || !okSpeed || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
			return protocols.Result{}, fmt.Errorf("bad location %q %q %q %q %q",
				f[h-1], f[h], f[h+1], f[h+2], f[h+3])
		}
		fixed = lat != 0 || lon != 0
	}
	i := h + 4
	if i < len(f) {
		course, _ = decimal(f[i])
		i++
	}
	if i < len(f) && isDigits(f[i]) && len(f[i]) != 6 {
		i++ // battery, not decoded (as Traccar)
	}
	var when time.Time
	if i < len(f) && (f[i] == "" || len(f[i]) == 6 && isDigits(f[i])) {
		if f[i] != "" {
			ddmmyy, _ := integer(f[i])
			var ok bool
			when, ok = dateTime(ddmmyy, clock)
			if !ok && fixed {
				return protocols.Result{}, fmt.Errorf("bad date %q %q", f[i], f[timeAt])
			}
		}
		i++
	}
	var pos *model.Position
	if fixed {
		pos = p.newPosition()
		pos.Valid = valid
		pos.Latitude, pos.Longitude, pos.Speed, pos.Course = lat, lon, speed, course
		if when.IsZero() {
			when = p.now.Now()
		}
		pos.DeviceTime, pos.FixTime = when, when
	} else {
		pos = p.outdated(when)
	}
	p.decodeTail(pos, f[min(i, len(f)):])

	res := protocols.Result{Positions: []*model.Position{pos}}
	switch typ {
	case "V1":
		res.Ack = p.replyV4(f[1], "V1")
	case "V4":
		res.CommandResult = strings.Join(f[3:timeAt], ",")
		pos.Attributes["result"] = res.CommandResult
	}
	return res, nil
}

// anchor finds the latitude hemisphere field: first a "N/S,...,E/W" pair,
// else (a frame without a fix) a pair of hemisphere fields that are empty
// or "0" around empty or zero coordinates. fixed tells which was found.
func anchor(f []string) (h int, fixed bool) {
	for i := 5; i+2 < len(f); i++ {
		if (f[i] == "N" || f[i] == "S") && (f[i+2] == "E" || f[i+2] == "W") {
			return i, true
		}
	}
	for i := 5; i+2 < len(f); i++ {
		if noFix(f[i-1]) && noFix(f[i+1]) &&
			strings.Contains("NS0", f[i]) && len(f[i]) <= 1 && strings.Contains("EW0", f[i+2]) && len(f[i+2]) <= 1 {
			return i, false
		}
	}
	return -1, false
}

// noFix reports whether a coordinate field is empty or zero.
func noFix(v string) bool { return strings.Trim(v, "0.") == "" }

// decodeTail reads what follows the date: optional SIM fields, the status
// word, then six known values or free values kept as io1, io2...
func (p *Protocol) decodeTail(pos *model.Position, f []string) {
	var status string
	switch {
	case len(f) > 0 && isStatus(f[0]):
		status, f = f[0], f[1:]
	case len(f) > 3 && isStatus(f[3]):
		status, f = f[3], f[4:]
	default:
		return
	}
	setStatus(pos, parseStatus(status))
	if len(f) == 6 && decodeExtended(pos, f) {
		return
	}
	for len(f) > 0 && f[len(f)-1] == "" {
		f = f[:len(f)-1] // a trailing comma before '#' adds no value
	}
	for i, v := range f {
		pos.Attributes["io"+strconv.Itoa(i+1)] = strings.TrimSpace(v)
	}
}

// decodeExtended reads odometer, temperature, fuel, altitude, LAC and CID
// (hex); false if the values are not of that shape.
func decodeExtended(pos *model.Position, f []string) bool {
	odometer, ok1 := integer(f[0])
	temp, ok2 := integer(f[1])
	fuel, ok3 := decimal(f[2])
	alt, ok4 := integer(f[3])
	lac, ok5 := hexInt(f[4])
	cid, ok6 := hexInt(f[5])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !strings.Contains(f[2], ".") {
		return false
	}
	pos.Attributes["odometer"] = odometer
	pos.Attributes["temp1"] = temp
	pos.Attributes["fuel"] = fuel // Traccar's name for this field
	pos.Altitude = float64(alt)
	pos.Network = network([]map[string]any{cell(-1, 0, lac, cid, nil)})
	return true
}
