package jt600

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errShort = errors.New("jt600: frame too short")

// locationSize is the location block every binary record starts with:
// ddMMyy hhmmss (BCD), latitude (8 BCD digits ddmm.mmmm), longitude (9
// BCD digits dddmm.mmmm) sharing its last byte with the flags nibble,
// speed (2 BCD digits) and course (in 2-degree units).
const locationSize = 17

// Record sizes after the location block: the long layout (odometer,
// satellites, vehicle id, status, battery, cell) and the short one, whose
// 10 bytes the type byte's high nibble (1, 2 or 3) lays out.
const (
	longTail  = 17
	shortTail = 10
	// Protocol versions 0x17 and 0x19 add a geofence id and 3 reserved
	// bytes, then an extension up to the serial byte: one record a frame.
	extendedTail = 4
)

// decodeBinary decodes a '$' frame into its records. Long-layout records
// whose status asks for an answer are acknowledged once stored: "(P35)"
// before protocol version 0x19, "(P69,0,<serial>)" from it.
func decodeBinary(frame []byte) (protocols.Result, error) {
	if len(frame) < minBinary || !bcd(frame[1:6]) {
		return protocols.Result{}, errShort
	}
	id := strings.TrimLeft(hex.EncodeToString(frame[1:6]), "0")
	if id == "" {
		return protocols.Result{}, errors.New("jt600: device id 0")
	}
	res := protocols.Result{UniqueID: id}
	long := isLong(frame)
	body := frame[binaryHeader : len(frame)-1] // records; the last byte is the serial
	version, protocolVersion := int(frame[6]>>4), 0
	tail := shortTail
	if long {
		protocolVersion, tail = int(frame[6]), longTail
		body = frame[binaryHeader+1 : len(frame)-1]
		if protocolVersion == 0x17 || protocolVersion == 0x19 {
			tail += extendedTail
		}
	} else if version < 1 || version > 3 {
		return res, fmt.Errorf("jt600: short record type %d unknown", version)
	}
	answer := false
	// Bytes after the last whole record are an extension Traccar skips
	// too (an IMEI, sensor data).
	for len(body) >= locationSize+tail {
		p, err := readLocation(body)
		if err != nil {
			return res, err
		}
		rec := body[locationSize : locationSize+tail]
		switch {
		case long:
			answer = longRecord(p, rec) || answer
		case version == 1:
			shortRecord1(p, rec)
		case version == 2:
			shortRecord2(p, rec)
		default:
			shortRecord3(p, rec)
		}
		res.Positions = append(res.Positions, p)
		body = body[locationSize+tail:]
		if long && tail > longTail {
			break
		}
	}
	if len(res.Positions) == 0 {
		return res, errShort
	}
	if answer {
		res.Ack = []byte("(P35)")
		if protocolVersion >= 0x19 {
			res.Ack = fmt.Appendf(nil, "(P69,0,%d)", frame[len(frame)-1])
		}
	}
	return res, nil
}

// readLocation reads the location block at the start of b.
func readLocation(b []byte) (*model.Position, error) {
	if len(b) < locationSize || !bcd(b[:14]) || b[14]>>4 > 9 {
		return nil, errors.New("jt600: location is not BCD")
	}
	digits := hex.EncodeToString(b[:15]) // date, time, lat, lon and the flags nibble
	t, err := time.Parse("020106150405", digits[:12])
	if err != nil {
		return nil, fmt.Errorf("jt600: bad date/time %s", digits[:12])
	}
	flags := b[14] & 0x0F
	lat := degreesMinutes(digits[12:20], 2)
	lon := degreesMinutes(digits[20:29], 3)
	if lat > 90 || lon > 180 || digits[14] > '5' || digits[23] > '5' {
		return nil, fmt.Errorf("jt600: coordinates %s %s off the globe", digits[12:20], digits[20:29])
	}
	if flags&0x02 == 0 {
		lat = -lat
	}
	if flags&0x04 == 0 {
		lon = -lon
	}
	p := newPosition(t, flags&0x01 != 0, lat, lon)
	// Traccar keeps the BCD speed as it is, in knots; some firmware
	// writes nibbles over 9 there, read as Traccar reads them.
	p.Speed = float64(b[15]>>4*10 + b[15]&0x0F)
	p.Course = float64(b[16]) * 2
	return p, nil
}

// degreesMinutes reads "dd" + "mm" + "mmmm" (minutes with four implied
// decimals) from decimal digits.
func degreesMinutes(s string, degDigits int) float64 {
	deg, minutes := atoi(s[:degDigits]), atoi(s[degDigits:])
	return float64(deg) + float64(minutes)/10000/60
}

func atoi(s string) int {
	n := 0
	for i := range len(s) {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// newPosition is a position at t. A frame without a fix whose coordinates
// are zero (the device has had none since power-up) is outdated: the
// ingest copies the last known location into it.
func newPosition(t time.Time, valid bool, lat, lon float64) *model.Position {
	p := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	if !valid && lat == 0 && lon == 0 {
		p.Outdated = true // its time is the device clock's reset date, too
		return p
	}
	p.FixTime, p.DeviceTime, p.Valid, p.Latitude, p.Longitude = t, t, valid, lat, lon
	return p
}

// longStatusAlarms maps bits of the long layout's status word.
var longStatusAlarms = []struct {
	bit   uint
	alarm string
}{{1, "geofenceEnter"}, {2, "geofenceExit"}, {3, "powerCut"}, {4, "vibration"}, {11, "lowBattery"}, {14, "fault"}}

// longRecord reads odometer (km), satellites, vehicle id, status word,
// battery (0xFF: charging) and the serving cell, and tells whether the
// status asks for an answer (bit 5).
func longRecord(p *model.Position, b []byte) bool {
	p.Attributes["odometer"] = int64(binary.BigEndian.Uint32(b)) * 1000
	p.Attributes["sat"] = int(b[4])
	status := int(binary.BigEndian.Uint16(b[9:]))
	for _, a := range longStatusAlarms {
		if status&(1<<a.bit) != 0 {
			addAlarm(p, a.alarm)
		}
	}
	p.Attributes["blocked"] = status&(1<<7) != 0
	p.Attributes["status"] = status
	if battery := b[11]; battery == 0xFF {
		p.Attributes["charge"] = true
	} else {
		p.Attributes["batteryLevel"] = int(battery)
	}
	cid, lac := int(binary.BigEndian.Uint16(b[12:])), int(binary.BigEndian.Uint16(b[14:]))
	p.Network = cellNetwork(cid, lac, int(b[16]))
	return status&(1<<5) != 0
}

// shortRecord1 reads satellites, power, a flags byte, altitude and the
// serving cell; without a cell the signal is stored as rssi.
func shortRecord1(p *model.Position, b []byte) {
	p.Attributes["sat"] = int(b[0])
	p.Attributes["power"] = int(b[1])
	p.Altitude = float64(binary.BigEndian.Uint16(b[3:]))
	cid, lac, rssi := int(binary.BigEndian.Uint16(b[5:])), int(binary.BigEndian.Uint16(b[7:])), int(b[9])
	if cid != 0 && lac != 0 {
		p.Network = cellNetwork(cid, lac, rssi)
	} else {
		p.Attributes["rssi"] = rssi
	}
}

// shortRecord2 reads the fuel level (high byte first, low byte last), four
// status bytes and the odometer in km.
func shortRecord2(p *model.Position, b []byte) {
	s1, s2, s3 := b[1], b[2], b[3]
	p.Attributes["ignition"] = s1&0x01 != 0
	p.Attributes["door"] = s1&0x40 != 0
	p.Attributes["charge"] = s2&0x01 != 0
	p.Attributes["blocked"] = s2&0x02 != 0
	if s2&0x04 != 0 {
		addAlarm(p, "sos")
	}
	if s2&0x18 != 0 {
		addAlarm(p, "gpsAntennaCut")
	}
	if s2&0x10 != 0 {
		addAlarm(p, "overspeed")
	}
	if s3&0x04 != 0 {
		addAlarm(p, "fatigueDriving")
	}
	if s3&0x08 != 0 {
		addAlarm(p, "tow")
	}
	p.Attributes["odometer"] = int64(binary.BigEndian.Uint32(b[5:])) * 1000
	p.Attributes["fuel"] = int(b[0])<<8 | int(b[9])
}

// shortRecord3 reads three 12-bit fuel sensors, a 20-bit odometer in km
// and a 24-bit status whose bit 0 is the ignition, packed MSB first.
func shortRecord3(p *model.Position, b []byte) {
	p.Attributes["fuel1"] = bitField(b, 0, 12)
	p.Attributes["fuel2"] = bitField(b, 12, 12)
	p.Attributes["fuel3"] = bitField(b, 24, 12)
	p.Attributes["odometer"] = int64(bitField(b, 36, 20)) * 1000
	status := bitField(b, 56, 24)
	p.Attributes["ignition"] = status&1 != 0
	p.Attributes["status"] = status
}

// bitField reads n bits of b from bit offset from, most significant first.
func bitField(b []byte, from, n int) int {
	v := 0
	for i := from; i < from+n; i++ {
		v = v<<1 | int(b[i/8]>>(7-i%8)&1)
	}
	return v
}

// cellNetwork is the serving cell (no MCC/MNC in these frames), shaped like
// Traccar's Network.
func cellNetwork(cid, lac, signal int) map[string]any {
	tower := map[string]any{"cellId": int64(cid), "locationAreaCode": lac, "signalStrength": signal}
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{tower}}
}

// addAlarm appends an alarm the way Traccar does: several are comma-joined.
func addAlarm(p *model.Position, alarm string) {
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		if strings.Contains(","+old+",", ","+alarm+",") {
			return
		}
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}
