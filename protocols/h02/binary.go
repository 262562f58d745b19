package h02

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// binaryBody is the number of bytes after the id that a '$' frame must hold:
// time and date (6), latitude (4), battery (1), longitude and flags (5),
// speed and course (3), status (4).
const binaryBody = 23

// longIDFrame is the frame length of the variant with an 8-byte id (the
// IMEI as 15 BCD digits and a pad nibble).
const longIDFrame = 42

// Flags in the low nibble of the last longitude byte.
const (
	flagValid = 0x02
	flagNorth = 0x04
	flagEast  = 0x08
)

// nibbles reads BCD digits from b, starting at nibble index from.
type nibbles []byte

func (b nibbles) at(i int) int {
	if i%2 == 0 {
		return int(b[i/2] >> 4)
	}
	return int(b[i/2] & 0x0f)
}

// number reads n BCD digits from nibble from; false if one is not a digit.
func (b nibbles) number(from, n int) (int, bool) {
	v := 0
	for i := from; i < from+n; i++ {
		d := b.at(i)
		if d > 9 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

func (p *Protocol) decodeBinary(frame []byte) (protocols.Result, error) {
	idLen := 5
	if len(frame) == longIDFrame {
		idLen = 8
	}
	if len(frame) < 1+idLen+binaryBody {
		return protocols.Result{}, fmt.Errorf("h02: binary frame of %d bytes", len(frame))
	}
	id := hex.EncodeToString(frame[1 : 1+idLen])
	if idLen == 8 {
		id = id[:15]
	}
	b := nibbles(frame[1+idLen:])

	// Digits: hhmmss ddMMyy, latitude DD MM.MMMM, battery byte, longitude
	// DDD MM.MMMM, flags nibble, speed SSS, course C CC (hundreds nibble).
	var f [8]int
	fields := [...]struct{ from, n int }{{0, 6}, {6, 6}, {12, 2}, {14, 6}, {22, 3}, {25, 6}, {32, 3}, {36, 2}}
	for i, fl := range fields {
		v, ok := b.number(fl.from, fl.n)
		if !ok {
			return protocols.Result{}, fmt.Errorf("h02: binary frame from %s: bad BCD", id)
		}
		f[i] = v
	}
	when, ok := dateTime(f[1], f[0])
	if !ok {
		return protocols.Result{}, fmt.Errorf("h02: binary frame from %s: bad time", id)
	}
	flags := b.at(31)
	courseHundreds := b.at(35)

	pos := p.newPosition()
	pos.DeviceTime, pos.FixTime = when, when
	pos.Valid = flags&flagValid != 0
	pos.Latitude = float64(f[2]) + float64(f[3])/10000/60
	pos.Longitude = float64(f[4]) + float64(f[5])/10000/60
	if flags&flagNorth == 0 {
		pos.Latitude = -pos.Latitude
	}
	if flags&flagEast == 0 {
		pos.Longitude = -pos.Longitude
	}
	pos.Speed = float64(f[6])
	pos.Course = float64(courseHundreds*100 + f[7])
	if level, ok := batteryLevel(b[10]); ok {
		pos.Attributes["batteryLevel"] = level
	}
	setStatus(pos, binary.BigEndian.Uint32(b[19:23]))
	if err := protocols.CheckFix(pos); err != nil {
		return protocols.Result{}, err
	}
	return protocols.Result{UniqueID: id, Positions: []*model.Position{pos}}, nil
}

// dateTime builds a UTC time from ddMMyy and hhmmss numbers.
func dateTime(ddmmyy, hhmmss int) (time.Time, bool) {
	day, month, year := ddmmyy/10000, ddmmyy/100%100, ddmmyy%100
	hour, minute, second := hhmmss/10000, hhmmss/100%100, hhmmss%100
	if day < 1 || day > 31 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, false
	}
	return time.Date(2000+year, time.Month(month), day, hour, minute, second, 0, time.UTC), true
}
