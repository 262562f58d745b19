package jt600

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errNotText = errors.New("jt600: not a JT600 text frame")

// escape is the byte that starts an escaped byte inside text frames, and
// escaped maps the byte after it to the byte it stands for.
const escape = 0x3D

var escaped = map[byte]byte{0x15: '(', 0x14: ')', 0x11: ',', 0x00: escape}

// unescape restores the bytes of a text frame's embedded binary data.
func unescape(frame []byte) ([]byte, error) {
	if bytes.IndexByte(frame, escape) < 0 {
		return frame, nil
	}
	out := make([]byte, 0, len(frame))
	for i := 0; i < len(frame); i++ {
		if frame[i] != escape {
			out = append(out, frame[i])
			continue
		}
		i++
		if i == len(frame) {
			return nil, errors.New("jt600: escape at the frame end")
		}
		b, ok := escaped[frame[i]]
		if !ok {
			return nil, fmt.Errorf("jt600: bad escape at byte %d", i)
		}
		out = append(out, b)
	}
	return out, nil
}

// decodeText decodes a '(' frame: `(<id>,<type>,<fields>…)`.
func decodeText(frame []byte) (protocols.Result, error) {
	if len(frame) < 3 || frame[0] != '(' || frame[len(frame)-1] != ')' {
		return protocols.Result{}, errNotText
	}
	frame, err := unescape(frame)
	if err != nil {
		return protocols.Result{}, err
	}
	if i := bytes.Index(frame, []byte(",WLNET,5,")); i > 0 {
		return decodePeripheral(frame)
	}
	fields := strings.Split(string(frame[1:len(frame)-1]), ",")
	if !isID(fields[0]) || len(fields) < 2 {
		return protocols.Result{}, errNotText
	}
	res := protocols.Result{UniqueID: fields[0]}
	typ := fields[1]
	if digits(typ) && len(fields) > 2 {
		typ = fields[2] // a sub-record number comes first (U09 trip records)
	}
	var p *model.Position
	switch {
	case typ == "@JT" && len(fields) == 2:
		return res, nil // the heartbeat: nothing to store or answer
	case typ == "W01" && fields[1] == typ:
		p, err = decodeW01(fields)
	case typ == "P45" && fields[1] == typ:
		p, err = decodeP45(fields)
		if err == nil {
			res.Ack = fmt.Appendf(nil, "(P69,0,%s)", fields[16])
		}
	case fields[1] == typ && isUType(typ) && len(fields) > 3:
		p, err = decodeU(fields)
		switch typ {
		case "U01", "U02", "U03":
			res.Ack = []byte("(S39)")
		case "U06":
			res.Ack = []byte("(S20)")
		}
	case len(typ) == 3 && strings.IndexByte("UPW", typ[0]) >= 0 && digits(typ[1:]):
		res.Unsupported = "JT600 " + typ + " message not decoded"
		return res, nil
	default:
		return protocols.Result{}, errNotText
	}
	if err != nil {
		return protocols.Result{UniqueID: res.UniqueID}, err
	}
	res.Positions = []*model.Position{p}
	return res, nil
}

// isUType reports U01–U06: the location reports sharing one layout.
func isUType(typ string) bool {
	return len(typ) == 3 && typ[0] == 'U' && typ[1] == '0' && typ[2] >= '1' && typ[2] <= '6'
}

// isID accepts a device id: decimal digits (10 on Jointech devices).
func isID(s string) bool { return len(s) >= 1 && len(s) <= 20 && digits(s) }

func digits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// fields reads typed values from comma fields, remembering the first
// malformed one.
type fieldReader struct {
	f   []string
	err error
}

func (r *fieldReader) fail(i int, what string) {
	if r.err == nil {
		r.err = fmt.Errorf("jt600: field %d %q is not %s", i, r.f[i], what)
	}
}

func (r *fieldReader) int(i int) int {
	n, err := strconv.Atoi(r.f[i])
	if err != nil || !digits(r.f[i]) {
		r.fail(i, "a number")
	}
	return n
}

func (r *fieldReader) float(i int) float64 {
	s := r.f[i]
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || s == "" || s[0] < '0' || s[0] > '9' || strings.ContainsAny(s, "eExXpP_") || math.IsInf(v, 0) {
		r.fail(i, "a decimal")
	}
	return v
}

// oneOf returns the field's index in set ("NS": 0 for N, 1 for S).
func (r *fieldReader) oneOf(i int, set ...string) int {
	for k, s := range set {
		if r.f[i] == s {
			return k
		}
	}
	r.fail(i, strings.Join(set, " or "))
	return 0
}

// dateTime reads ddMMyy and hhmmss fields.
func (r *fieldReader) dateTime(i int) time.Time {
	t, err := time.Parse("020106150405", r.f[i]+r.f[i+1])
	if err != nil || len(r.f[i]) != 6 || len(r.f[i+1]) != 6 {
		r.fail(i, "a date and time")
	}
	return t
}

// coordinate reads a degrees field and its hemisphere field (0: the
// positive one first in set).
func (r *fieldReader) coordinate(i int, limit float64, set ...string) float64 {
	v := r.float(i)
	if v > limit {
		r.fail(i, "a coordinate")
	}
	if r.oneOf(i+1, set...) == 1 {
		v = -v
	}
	return v
}

// nmea converts dddmm.mmmm to degrees.
func nmea(v float64) float64 {
	deg := math.Floor(v / 100)
	return deg + (v-deg*100)/60
}

// decodeW01 reads `(id,W01,dddmm.mmmm,E,ddmm.mmmm,N,A,ddMMyy,hhmmss,
// speed km/h,course,power,GPS signal,GSM signal,alert type,…)`.
func decodeW01(f []string) (*model.Position, error) {
	if len(f) < 15 {
		return nil, errNotText
	}
	r := &fieldReader{f: f}
	lon := r.coordinate(2, 18000, "E", "W")
	lat := r.coordinate(4, 9000, "N", "S")
	valid := r.oneOf(6, "A", "V") == 0
	p := newPosition(r.dateTime(7), valid, nmea(lat), nmea(lon))
	p.Speed = r.float(9) * kphToKnots
	p.Course = r.float(10)
	p.Attributes["power"] = r.float(11)
	p.Attributes["gps"] = r.int(12)
	p.Attributes["rssi"] = r.int(13)
	p.Attributes["alertType"] = r.int(14)
	return p, r.err
}

// decodeU reads `(id,Uxx,[alarm,]ddMMyy,hhmmss,T|F,lat,N,lon,E,speed mph,
// course,satellites,battery%,status bits,cell id,LAC,GSM signal,odometer
// km,serial,…)`; U06 alarm reports carry the alarm field.
func decodeU(f []string) (*model.Position, error) {
	i := 2
	if len(f) > 5 && (f[5] == "T" || f[5] == "F") {
		i = 3 // an alarm number precedes the date
	}
	if len(f) < i+17 {
		return nil, errNotText
	}
	r := &fieldReader{f: f}
	if i == 3 {
		r.int(2)
	}
	t := r.dateTime(i)
	valid := r.oneOf(i+2, "T", "F") == 0
	p := newPosition(t, valid, r.coordinate(i+3, 90, "N", "S"), r.coordinate(i+5, 180, "E", "W"))
	p.Speed = r.float(i+7) * mphToKnots
	p.Course = r.float(i + 8)
	p.Attributes["sat"] = r.int(i + 9)
	battery, ok := strings.CutSuffix(f[i+10], "%")
	if !ok || !digits(battery) {
		r.fail(i+10, "a percentage")
	}
	p.Attributes["batteryLevel"], _ = strconv.Atoi(battery)
	status, err := strconv.ParseUint(f[i+11], 2, 32)
	if err != nil || !digits(f[i+11]) {
		r.fail(i+11, "status bits")
	}
	p.Attributes["status"] = int(status)
	if cid, lac := r.int(i+12), r.int(i+13); cid != 0 || lac != 0 {
		p.Network = cellNetwork(cid, lac, r.int(i+14))
	}
	p.Attributes["odometer"] = int64(r.int(i+15)) * 1000
	p.Attributes["index"] = r.int(i + 16)
	return p, r.err
}

// noDriver is the RFID field of a lock event without a card.
const noDriver = "0000000000"

// decodeP45 reads a lock event: `(id,P45,ddMMyy,hhmmss,lat,N,lon,E,A,
// speed mph,course,event source,unlock verification,RFID,password
// verification,wrong password count,serial,…)`.
func decodeP45(f []string) (*model.Position, error) {
	if len(f) < 17 {
		return nil, errNotText
	}
	r := &fieldReader{f: f}
	t := r.dateTime(2)
	lat, lon := r.coordinate(4, 90, "N", "S"), r.coordinate(6, 180, "E", "W")
	p := newPosition(t, r.oneOf(8, "A", "V") == 0, lat, lon)
	p.Speed = r.float(9) * mphToKnots
	p.Course = r.float(10)
	p.Attributes["eventSource"] = r.int(11)
	r.int(12)
	if rfid := f[13]; rfid != noDriver {
		p.Attributes["driverUniqueId"] = rfid
	}
	r.int(16)
	return p, r.err
}

// peripheralSize is what follows the location in a WLNET record: sensor
// time (6), sensor id (5), index, battery (2, 10 mV), battery level,
// signal, sensor type; a type 1 (temperature) sensor adds temperature (2),
// humidity, data count (2) and a status byte.
const (
	peripheralSize  = 6 + 5 + 1 + 2 + 1 + 1 + 1
	temperatureSize = 2 + 1 + 2 + 1
)

// decodePeripheral reads `(id,n,n,WLNET,5,n,<binary>)`: a location block
// and a wireless sensor's record.
func decodePeripheral(frame []byte) (protocols.Result, error) {
	header := bytes.SplitN(frame[1:], []byte(","), 7)
	if len(header) < 7 || !isID(string(header[0])) || string(header[3]) != "WLNET" || string(header[4]) != "5" {
		return protocols.Result{}, errNotText
	}
	res := protocols.Result{UniqueID: string(header[0])}
	b := header[6][:len(header[6])-1]
	if len(b) < locationSize+peripheralSize {
		return res, errShort
	}
	p, err := readLocation(b)
	if err != nil {
		return res, err
	}
	s := b[locationSize:]
	p.Attributes["sensorBattery"] = float64(binary.BigEndian.Uint16(s[12:])) / 100
	p.Attributes["sensorBatteryLevel"] = int(s[14])
	p.Attributes["sensorRssi"] = -int(s[15])
	if s[16] == 1 && len(s) >= peripheralSize+temperatureSize {
		if t := binary.BigEndian.Uint16(s[17:]); t != 0xFFFF {
			v := float64(t&0x0FFF) / 10
			if t&0xF000 != 0 {
				v = -v
			}
			p.Attributes["temp1"] = v
		}
		p.Attributes["humidity"] = int(s[19])
	}
	res.Positions = []*model.Position{p}
	return res, nil
}
