package chunk

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

// A record is one position on its own, for the store's arrival-order log:
// no dictionaries or deltas to set up, so it encodes in about a
// microsecond and decodes in two, where JSON takes four and eight. Like a
// chunk it reads back exactly what a JSON round trip gives. The id and the
// device are the log's to keep; a record holds neither.
//
//	byte     RecordVersion
//	uvarint  flags: outdated, valid, address, geofenceIds, attributes set
//	string   protocol
//	time     fixTime, deviceTime, serverTime (varint s, uvarint ns, varint offset/60)
//	value    latitude, longitude, altitude, speed, course, accuracy
//	string   address, if set
//	uvarint  count, varint ids: geofenceIds, if set
//	value    network
//	uvarint  count, then (key, value): attributes, if set
//
// A string is a uvarint length and its bytes; an attribute key is a
// uvarint, 0 for a string that follows, else an index into recordKeys
// plus one. A value is a tag byte and its payload (recordNull ...).

// RecordVersion is the first byte of every record.
const RecordVersion = 1

const (
	recFlagOutdated = 1 << iota
	recFlagValid
	recFlagAddress
	recFlagGeofences
	recFlagAttributes
)

// Value tags of records.
const (
	recordNull = iota
	recordFalse
	recordTrue
	recordString
	recordFloat   // 8 bytes, little-endian bits
	recordInteger // an integral float64, zigzag varint
	recordArray
	recordObject
)

// recordKeys are attribute keys the decoders and the ingest write, coded in
// a byte. Append only: stored records refer to them by index.
var recordKeys = []string{
	"distance", "totalDistance", "motion", "ignition", "sat", "rssi", "batteryLevel", "event",
	"archive", "odometer", "power", "battery", "alarm", "status", "hours", "input", "output",
	"io", "priority", "result", "charge", "blocked", "hdop", "pdop", "type", "index", "steps",
	"fuel", "temp1", "adc1", "driverUniqueId", "armed", "door", "raw", "versionFw", "iccid",
	"accuracy", "network", "operator", "gsm", "trip", "tripOdometer",
}

var recordKeyIndex = func() map[string]int {
	m := make(map[string]int, len(recordKeys))
	for i, k := range recordKeys {
		m[k] = i + 1
	}
	return m
}()

// AppendRecord appends p's record to b. It refuses what JSON refuses.
func AppendRecord(b []byte, p *model.Position) ([]byte, error) {
	var flags uint64
	if p.Outdated {
		flags |= recFlagOutdated
	}
	if p.Valid {
		flags |= recFlagValid
	}
	if p.Address != nil {
		flags |= recFlagAddress
	}
	if p.GeofenceIDs != nil {
		flags |= recFlagGeofences
	}
	if p.Attributes != nil {
		flags |= recFlagAttributes
	}
	b = append(b, RecordVersion)
	b = binary.AppendUvarint(b, flags)
	b = appendRecordString(b, canonString(p.Protocol))
	for _, t := range [3]time.Time{p.FixTime, p.DeviceTime, p.ServerTime} {
		st, err := canonTime(t)
		if err != nil {
			return nil, fmt.Errorf("chunk: record: %w", err)
		}
		b = binary.AppendVarint(b, st.sec)
		b = binary.AppendUvarint(b, uint64(st.ns))
		b = binary.AppendVarint(b, int64(st.off/60))
	}
	var err error
	for _, f := range [...]float64{p.Latitude, p.Longitude, p.Altitude, p.Speed, p.Course, p.Accuracy} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("chunk: unsupported value %v", f)
		}
		b = appendRecordNumber(b, f)
	}
	if p.Address != nil {
		b = appendRecordString(b, canonString(*p.Address))
	}
	if p.GeofenceIDs != nil {
		b = binary.AppendUvarint(b, uint64(len(p.GeofenceIDs)))
		for _, id := range p.GeofenceIDs {
			b = binary.AppendVarint(b, id)
		}
	}
	if b, err = appendRecordValue(b, p.Network, 0); err != nil {
		return nil, err
	}
	if p.Attributes != nil {
		if b, err = appendRecordMap(b, p.Attributes, 0, true); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func appendRecordString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendRecordValue appends v as its JSON round trip gives it back. The
// kinds the decoders make are written directly; the others are made
// canonical first (canon), which allocates.
func appendRecordValue(b []byte, v any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	switch x := v.(type) {
	case nil:
		return append(b, recordNull), nil
	case bool:
		if x {
			return append(b, recordTrue), nil
		}
		return append(b, recordFalse), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("chunk: unsupported value %v", x)
		}
		return appendRecordNumber(b, x), nil
	case int:
		return appendRecordNumber(b, float64(x)), nil
	case int64:
		return appendRecordNumber(b, float64(x)), nil
	case int8, int16, int32, uint, uint8, uint16, uint32, uint64:
		return appendRecordNumber(b, model.Number(x)), nil
	case string:
		return appendRecordString(append(b, recordString), canonString(x)), nil
	case []any:
		b = binary.AppendUvarint(append(b, recordArray), uint64(len(x)))
		var err error
		for _, e := range x {
			if b, err = appendRecordValue(b, e, depth+1); err != nil {
				return nil, err
			}
		}
		return b, nil
	case map[string]any:
		if x == nil {
			return append(b, recordNull), nil
		}
		return appendRecordMap(append(b, recordObject), x, depth, false)
	}
	c, _, err := canon(v, depth)
	if err != nil {
		return nil, err
	}
	return appendCanonical(b, c), nil
}

// appendRecordMap appends m's size and entries; keys are coded with
// recordKeys when withKeys is set.
func appendRecordMap(b []byte, m map[string]any, depth int, withKeys bool) ([]byte, error) {
	for k := range m {
		if !utf8.ValidString(k) { // encoding/json coerces such keys, which may then collide
			c, err := viaJSON(m)
			if err != nil {
				return nil, err
			}
			cm, _ := c.(map[string]any)
			m = cm
			break
		}
	}
	b = binary.AppendUvarint(b, uint64(len(m)))
	var err error
	for k, v := range m {
		if i, ok := recordKeyIndex[k]; ok && withKeys {
			b = binary.AppendUvarint(b, uint64(i))
		} else {
			if withKeys {
				b = append(b, 0)
			}
			b = appendRecordString(b, k)
		}
		if b, err = appendRecordValue(b, v, depth+1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// appendCanonical appends a canonical value (see canon).
func appendCanonical(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, recordNull)
	case bool:
		if x {
			return append(b, recordTrue)
		}
		return append(b, recordFalse)
	case string:
		return appendRecordString(append(b, recordString), x)
	case float64:
		return appendRecordNumber(b, x)
	case []any:
		b = binary.AppendUvarint(append(b, recordArray), uint64(len(x)))
		for _, e := range x {
			b = appendCanonical(b, e)
		}
		return b
	case map[string]any:
		b = binary.AppendUvarint(append(b, recordObject), uint64(len(x)))
		for k, e := range x {
			b = appendCanonical(appendRecordString(b, k), e)
		}
		return b
	}
	panic(fmt.Sprintf("chunk: value %T is not canonical", v)) // canon returns only the above
}

// appendRecordNumber appends a finite number: an integer up to 2^53 as a
// varint, else its bits.
func appendRecordNumber(b []byte, x float64) []byte {
	if n := int64(x); float64(n) == x && math.Abs(x) <= 1<<53 && !(x == 0 && math.Signbit(x)) {
		return binary.AppendVarint(append(b, recordInteger), n)
	}
	return binary.LittleEndian.AppendUint64(append(b, recordFloat), math.Float64bits(x))
}

// DecodeRecord decodes a record made by AppendRecord; the id and device
// are left zero. It returns an error wrapping ErrCorrupt for bad data and
// never panics.
func DecodeRecord(data []byte) (*model.Position, error) {
	if len(data) == 0 || data[0] != RecordVersion {
		return nil, corrupt("record version")
	}
	r := &reader{b: data[1:]}
	p := new(model.Position)
	flags := r.uvarint()
	p.Outdated, p.Valid = flags&recFlagOutdated != 0, flags&recFlagValid != 0
	p.Protocol = string(r.bytes(r.uvarint()))
	for _, t := range [3]*time.Time{&p.FixTime, &p.DeviceTime, &p.ServerTime} {
		sec, ns, off := r.varint(), r.uvarint(), r.varint()
		if ns >= 1e9 || off <= -1440 || off >= 1440 {
			return nil, corrupt("record time")
		}
		*t = jsonTime(sec, int64(ns), int(off)*60, nil)
	}
	for _, f := range [...]*float64{&p.Latitude, &p.Longitude, &p.Altitude, &p.Speed, &p.Course, &p.Accuracy} {
		v, ok := recordValue(r, 0).(float64)
		if !ok {
			return nil, corrupt("record number")
		}
		*f = v
	}
	if flags&recFlagAddress != 0 {
		a := string(r.bytes(r.uvarint()))
		p.Address = &a
	}
	if flags&recFlagGeofences != 0 {
		n := r.length()
		p.GeofenceIDs = make([]int64, 0, n)
		for range n {
			p.GeofenceIDs = append(p.GeofenceIDs, r.varint())
		}
	}
	p.Network = recordValue(r, 0)
	if flags&recFlagAttributes != 0 {
		n := r.length()
		p.Attributes = make(model.Attributes, n)
		for range n {
			var k string
			switch i := r.uvarint(); {
			case i == 0:
				k = string(r.bytes(r.uvarint()))
			case i <= uint64(len(recordKeys)):
				k = recordKeys[i-1]
			default:
				r.fail("record key")
			}
			p.Attributes[k] = recordValue(r, 1)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, corrupt("record length")
	}
	return p, nil
}

func recordValue(r *reader, depth int) any {
	if depth > maxDepth {
		r.fail("record depth")
		return nil
	}
	switch tag := r.byte(); tag {
	case recordNull:
		return nil
	case recordFalse:
		return false
	case recordTrue:
		return true
	case recordString:
		return string(r.bytes(r.uvarint()))
	case recordFloat:
		bits := r.bytes(8)
		if bits == nil {
			return nil
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(bits))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			r.fail("record number")
			return nil
		}
		return v
	case recordInteger:
		return float64(r.varint())
	case recordArray:
		n := r.length()
		a := make([]any, 0, n)
		for range n {
			a = append(a, recordValue(r, depth+1))
		}
		return a
	case recordObject:
		n := r.length()
		m := make(map[string]any, n)
		for range n {
			k := string(r.bytes(r.uvarint()))
			m[k] = recordValue(r, depth+1)
		}
		return m
	default:
		r.fail("record tag")
		return nil
	}
}
