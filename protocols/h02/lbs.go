package h02

import (
	"errors"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errShape = errors.New("unexpected fields")

// frameTime is the device time of a status frame from its hhmmss and ddmmyy
// fields; the server clock stands in when they are unusable.
func (p *Protocol) frameTime(hms, dmy string) time.Time {
	clock, ok1 := hhmmss(hms)
	date, ok2 := integer(dmy)
	if ok1 && ok2 && len(dmy) == 6 {
		if when, ok := dateTime(date, clock); ok {
			return when
		}
	}
	return p.now.Now()
}

// decodeNBR decodes cell towers without GPS: time, MCC, MNC, delay, count,
// count × (LAC, CID, RSSI), date, status.
func (p *Protocol) decodeNBR(f []string) (protocols.Result, error) {
	if len(f) < 10 {
		return protocols.Result{}, errShape
	}
	mcc, ok1 := integer(f[4])
	mnc, ok2 := integer(f[5])
	count, ok3 := integer(f[7])
	end := 8 + 3*count
	if !ok1 || !ok2 || !ok3 || count < 0 || end+2 > len(f) || !isStatus(f[end+1]) {
		return protocols.Result{}, errShape
	}
	cells := make([]map[string]any, 0, count)
	for i := 8; i < end; i += 3 {
		lac, ok1 := integer(f[i])
		cid, ok2 := integer(f[i+1])
		rssi, ok3 := integer(f[i+2])
		if !ok1 || !ok2 || !ok3 {
			return protocols.Result{}, errShape
		}
		cells = append(cells, cell(mcc, mnc, lac, cid, &rssi))
	}
	pos := p.outdated(p.frameTime(f[3], f[end]))
	pos.Network = network(cells)
	setStatus(pos, parseStatus(f[end+1]))
	return protocols.Result{Positions: []*model.Position{pos}, Ack: p.replyV4(f[1], "NBR")}, nil
}

// decodeLink decodes the watch-style status frame: time, RSSI, satellites,
// battery, steps, turnovers, date, status.
func (p *Protocol) decodeLink(f []string) (protocols.Result, error) {
	if len(f) < 11 || !isStatus(f[10]) {
		return protocols.Result{}, errShape
	}
	pos := p.outdated(p.frameTime(f[3], f[9]))
	for i, key := range [...]string{"rssi", "sat", "batteryLevel", "steps", "turnovers"} {
		v, ok := integer(f[4+i])
		if !ok {
			return protocols.Result{}, errShape
		}
		pos.Attributes[key] = v
	}
	setStatus(pos, parseStatus(f[10]))
	return protocols.Result{Positions: []*model.Position{pos}}, nil
}

// decodeV3 decodes cell towers with a voltage: time, MCC and MNC run
// together, count, count × (LAC, CID, two more), battery (hex), reboot
// count, "X", date, status.
func (p *Protocol) decodeV3(f []string) (protocols.Result, error) {
	n := len(f)
	if n < 11 || len(f[4]) < 4 || !isStatus(f[n-1]) || f[n-3] != "X" {
		return protocols.Result{}, errShape
	}
	mcc, ok1 := integer(f[4][:3])
	mnc, ok2 := integer(f[4][3:])
	count, ok3 := integer(f[5])
	battery, ok4 := hexInt(f[n-5])
	cellFields := f[6 : n-5]
	if !ok1 || !ok2 || !ok3 || !ok4 || count < 0 || 4*count > len(cellFields) {
		return protocols.Result{}, errShape
	}
	cells := make([]map[string]any, 0, count)
	for i := 0; i < count; i++ {
		lac, ok1 := integer(cellFields[4*i])
		cid, ok2 := integer(cellFields[4*i+1])
		if !ok1 || !ok2 {
			return protocols.Result{}, errShape
		}
		cells = append(cells, cell(mcc, mnc, lac, cid, nil))
	}
	pos := p.outdated(p.frameTime(f[3], f[n-2]))
	pos.Network = network(cells)
	pos.Attributes["battery"] = battery
	setStatus(pos, parseStatus(f[n-1]))
	return protocols.Result{Positions: []*model.Position{pos}}, nil
}

// decodeVP1 decodes either "V,MCC,MNC,LAC,CID,RSSIYLAC,CID,RSSI..." (cells
// separated by 'Y') or "A,lat,N/S,lon,E/W,speed,course,ddmmyy".
func (p *Protocol) decodeVP1(f []string) (protocols.Result, error) {
	if len(f) < 6 {
		return protocols.Result{}, errShape
	}
	if f[3] == "V" {
		mcc, ok1 := integer(f[4])
		mnc, ok2 := integer(f[5])
		if !ok1 || !ok2 {
			return protocols.Result{}, errShape
		}
		var cells []map[string]any
		for _, c := range strings.Split(strings.Join(f[6:], ","), "Y") {
			v := strings.Split(c, ",")
			if len(v) != 3 {
				return protocols.Result{}, errShape
			}
			lac, ok1 := integer(v[0])
			cid, ok2 := integer(v[1])
			rssi, ok3 := integer(v[2])
			if !ok1 || !ok2 || !ok3 {
				return protocols.Result{}, errShape
			}
			cells = append(cells, cell(mcc, mnc, lac, cid, &rssi))
		}
		pos := p.outdated(time.Time{})
		pos.Network = network(cells)
		return protocols.Result{Positions: []*model.Position{pos}}, nil
	}
	if len(f) < 11 || f[3] != "A" && f[3] != "B" || !strings.Contains(f[4], ".") || !strings.Contains(f[6], ".") {
		return protocols.Result{}, errShape
	}
	lat, ok1 := coordinate(f[4], f[5])
	lon, ok2 := coordinate(f[6], f[7])
	speed, ok3 := decimal(f[8])
	course, ok4 := decimal(f[9])
	date, ok5 := integer(f[10])
	when, ok6 := dateTime(date, 0)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || len(f[10]) != 6 {
		return protocols.Result{}, errShape
	}
	pos := p.newPosition()
	pos.Valid = true
	pos.Latitude, pos.Longitude, pos.Speed, pos.Course = lat, lon, speed, course
	pos.DeviceTime, pos.FixTime = when, when
	return protocols.Result{Positions: []*model.Position{pos}}, nil
}
