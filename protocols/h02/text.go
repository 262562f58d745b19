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
	f := strings.Split(s, ",")
	if len(f) < 3 {
		return protocols.Result{}, nil
	}
	id := f[1]
	var res protocols.Result
	var err error
	switch typ := f[2]; typ {
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
		if strings.HasPrefix(typ, "V") {
			res, err = p.decodeLocation(f)
		}
	}
	if err != nil {
		return protocols.Result{UniqueID: id}, fmt.Errorf("h02: %s frame from %q: %w", f[2], id, err)
	}
	res.UniqueID = id
	return res, nil
}

// replyV4 is the server's acknowledgement of V1 and NBR frames.
func (p *Protocol) replyV4(id, typ string) []byte {
	if id == "" {
		return nil
	}
	return []byte("*HQ," + id + ",V4," + typ + "," + p.now.Now().Format("20060102150405") + "#")
}

// decodeHeartbeat answers with the frame head and reports the battery level
// when the heartbeat carries one.
func (p *Protocol) decodeHeartbeat(f []string) protocols.Result {
	res := protocols.Result{Reply: []byte(strings.Join(f[:3], ",") + "#")}
	if len(f) > 3 {
		if level, ok := integer(f[3]); ok && level >= 0 {
			pos := p.outdated(time.Time{})
			pos.Attributes["batteryLevel"] = level
			res.Positions = []*model.Position{pos}
		}
	}
	return res
}

// decodeLocation decodes the location frames (V1, V2, VI1, V19, command
// answers "V4,<answer>,..."): [time,] validity, latitude, N/S, longitude,
// E/W, speed (knots), course, [battery,] date, [three SIM fields,] status,
// then either odometer,temperature,fuel,altitude,lac,cid or free values.
func (p *Protocol) decodeLocation(f []string) (protocols.Result, error) {
	// Anchor on the hemisphere fields: what precedes them varies by type.
	h := -1
	for i := 5; i+2 < len(f); i++ {
		if (f[i] == "N" || f[i] == "S") && (f[i+2] == "E" || f[i+2] == "W") {
			h = i
			break
		}
	}
	timeAt := h - 3
	if h < 0 || f[2] == "V4" && timeAt < 3 || f[2] != "V4" && timeAt != 3 {
		return protocols.Result{}, nil // no fix (empty coordinates) or not a location
	}
	clock, ok := hhmmss(f[timeAt])
	lat, okLat := coordinate(f[h-1], f[h])
	lon, okLon := coordinate(f[h+1], f[h+2])
	if !ok || !okLat || !okLon || math.Abs(lat) > 90 || math.Abs(lon) > 180 || h+3 >= len(f) {
		return protocols.Result{}, nil
	}
	pos := p.newPosition()
	switch v := f[h-2]; {
	case v == "A":
		pos.Valid = true
	case v == "" || v == "B" || v == "V":
	case isDigits(v): // a coding scheme instead of a validity flag
		pos.Valid = true
	default:
		return protocols.Result{}, nil
	}
	pos.Latitude, pos.Longitude = lat, lon
	speed, ok := decimal(strings.TrimLeft(f[h+3], " "))
	if !ok {
		return protocols.Result{}, nil
	}
	pos.Speed = speed
	i := h + 4
	if i < len(f) {
		pos.Course, _ = decimal(f[i])
		i++
	}
	if i < len(f) && isDigits(f[i]) && len(f[i]) != 6 {
		i++ // battery, not decoded (as Traccar)
	}
	pos.DeviceTime = p.now.Now()
	if i < len(f) && (f[i] == "" || len(f[i]) == 6 && isDigits(f[i])) {
		if f[i] != "" {
			ddmmyy, _ := integer(f[i])
			when, ok := dateTime(ddmmyy, clock)
			if !ok {
				return protocols.Result{}, fmt.Errorf("bad date %q %q", f[i], f[timeAt])
			}
			pos.DeviceTime = when
		}
		i++
	}
	pos.FixTime = pos.DeviceTime
	p.decodeTail(pos, f[min(i, len(f)):])

	res := protocols.Result{Positions: []*model.Position{pos}}
	switch f[2] {
	case "V1":
		res.Reply = p.replyV4(f[1], "V1")
	case "V4":
		res.CommandResult = strings.Join(f[3:timeAt], ",")
		pos.Attributes["result"] = res.CommandResult
	}
	return res, nil
}

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
	pos.Attributes["fuelLevel"] = fuel
	pos.Altitude = float64(alt)
	pos.Network = network([]map[string]any{cell(-1, 0, lac, cid, nil)})
	return true
}
