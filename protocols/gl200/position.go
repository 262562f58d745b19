package gl200

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// newPosition is an empty position of this protocol.
func newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// setFix sets a decoded location. Reports carry the longitude first.
func setFix(f *fields, p *model.Position, lon, lat string, fix time.Time) {
	p.Longitude, p.Latitude = f.float(lon), f.float(lat)
	if p.Longitude < -180 || p.Longitude > 180 || p.Latitude < -90 || p.Latitude > 90 {
		f.fail(model.Invalid("gl200: location %s,%s off the globe", lat, lon))
		p.Longitude, p.Latitude = 0, 0
	}
	p.Valid = true
	p.FixTime, p.DeviceTime = fix, fix
}

// finish gives a position without a location the send time (or the server
// clock) and marks it outdated: the ingest copies the last known location
// into it.
func finish(p *model.Position, sent, now time.Time) {
	if !p.FixTime.IsZero() {
		return
	}
	t := sent
	if t.IsZero() {
		t = now
	}
	p.Outdated, p.Valid = true, false
	p.Latitude, p.Longitude = 0, 0
	p.FixTime, p.DeviceTime = t, t
}

// cellTower is shaped like Traccar's CellTower JSON object.
func cellTower(mcc, mnc int, lac, cid int64) map[string]any {
	return map[string]any{
		"mobileCountryCode": mcc,
		"mobileNetworkCode": mnc,
		"locationAreaCode":  lac,
		"cellId":            cid,
	}
}

// accessPoint is a Wi-Fi access point from a 12-hex-digit MAC.
func accessPoint(mac string, rssi int) map[string]any {
	var b strings.Builder
	for i := 0; i+2 <= len(mac); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strings.ToLower(mac[i : i+2]))
	}
	return map[string]any{"macAddress": b.String(), "signalStrength": rssi}
}

// setStatus decodes the 6-hex-digit device status: ignition in the high
// byte, digital inputs in the middle one, outputs in the low one.
func setStatus(p *model.Position, status int64) {
	ign := status >> 16 & 0xFF
	switch {
	case ign&0x10 != 0:
		p.Attributes["ignition"] = false
	case ign&0x20 != 0:
		p.Attributes["ignition"] = true
	}
	in, out := status>>8&0xFF, status&0xFF
	p.Attributes["input"] = in
	p.Attributes["in1"] = in&2 != 0
	p.Attributes["in2"] = in&4 != 0
	p.Attributes["output"] = out
	p.Attributes["out1"] = out&1 != 0
	p.Attributes["out2"] = out&2 != 0
}

// location reads one GPS point laid out as the field-indexed reports have
// it: accuracy, speed, azimuth, altitude, longitude, latitude, fix time,
// MCC, MNC, LAC, cell id, then (by model) CSQ values and an append mask
// announcing the satellite count and trigger type.
func location(f *fields, p *model.Position, deviceModel string) {
	hdop := 0.0
	if s := f.next(); s != "" {
		hdop = f.float(s)
	}
	p.Attributes["hdop"] = hdop
	if s := f.next(); s != "" {
		p.Speed = f.float(s) * knotsPerKph
	}
	if s := f.next(); s != "" {
		p.Course = float64(f.int(s))
	}
	if s := f.next(); s != "" {
		p.Altitude = f.float(s)
	}
	if f.peek(0) != "" {
		lon, lat := f.next(), f.next()
		setFix(f, p, lon, lat, f.time(f.next()))
	} else {
		f.skip(3)
	}
	if f.peek(0) != "" {
		mcc, mnc := f.int(f.next()), f.int(f.next())
		lac, cid := f.hex(f.next()), f.hex(f.next())
		if n := protocols.Network([]map[string]any{cellTower(mcc, mnc, lac, cid)}, nil); n != nil {
			p.Network = n
		}
	} else {
		f.skip(4)
	}
	if strings.HasPrefix(deviceModel, "GL5") {
		f.skip(2) // CSQ RSSI and BER
	}
	if deviceModel != "GL320M" {
		if s := f.next(); s != "" {
			mask := f.int(s)
			if mask&1 != 0 {
				p.Attributes["sat"] = f.int(f.next())
			}
			if mask&2 != 0 {
				f.skip(1) // trigger type
			}
		}
	}
}

// setText sets a text attribute; an empty field sets nothing, as Traccar
// stores no empty strings.
func setText(a model.Attributes, key, s string) {
	if s != "" {
		a[key] = s
	}
}
