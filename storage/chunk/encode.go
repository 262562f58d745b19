package chunk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Flags of a position.
const (
	fValid      = 1 << iota
	fOutdated   // Outdated
	fDeviceTime // deviceTime differs from fixTime: its delta follows
	fFixNs      // the fix time's nanoseconds changed: their delta follows
	fNetwork    // network changed: a value follows
	fKeys       // the attribute key set changed: it follows
	fSameCodes  // the attribute codes are the previous position's: none follow
	fZones      // a time is not in UTC: the three offsets follow
	fProtocol   // protocol changed: a string follows (from here on, flags take two bytes)
	fAddress    // address changed: a string follows unless fAddressNil
	fAddressNil // with fAddress: the address is null
	fGeofences  // geofence ids changed: they follow
	nFlags      = iota
)

// Value tags.
const (
	tSame    = iota // the key's previous value
	tNull           // null
	tFalse          // false
	tTrue           // true
	tString         // a string reference
	tArray          // uvarint length, values
	tObject         // uvarint length, key references and values
	tXOR            // float64 bits XOR the key's previous number bits
	tDecimal        // tDecimal+k: n/10^k, n as a zigzag delta from the key's previous n at the same k
	tEnd     = tDecimal + len(pow10)
)

// Columns of float fields coded with a per-chunk scheme.
const (
	cLat = iota
	cLon
	cAlt
	cSpeed
	cCourse
	cAccuracy
	nColumns
)

func columns(p *model.Position) [nColumns]float64 {
	return [nColumns]float64{p.Latitude, p.Longitude, p.Altitude, p.Speed, p.Course, p.Accuracy}
}

// Codes of the attribute values of a position, two bits a key.
const (
	codeUnchanged = iota
	codeSameTag   // the payload of a value with the key's previous tag
	codeTagged    // a tag and its payload
)

// valState is what the coding of a key's value refers to: its previous
// value (kind and scalar), and its previous number.
type valState struct {
	kind byte // tNull, tFalse, tTrue, tString or tXOR (a number); 0 for none or a composite
	s    string
	bits uint64 // previous number's bits
	dec  int    // previous number's decimals, -1 if it was no decimal
	n    int64  // previous number's n at dec
	tag  byte   // the tag last written for the key
}

type encoder struct {
	b        []byte
	strs     map[string]int
	keys     map[string]int
	states   []valState // by key index
	keyOrder []string   // scratch
	cvals    []cval     // scratch: the attribute values in keyOrder
	// codes are the attribute codes of the position, two bits a key.
	codes, prevCodes []byte
}

// encoders keep encoders' dictionaries and scratch space from one chunk to
// the next: the compactor encodes many small chunks, where making them
// was most of the work.
var encoders = sync.Pool{New: func() any { return &encoder{strs: map[string]int{}, keys: map[string]int{}} }}

// release resets e (the chunk it made is the caller's) and pools it.
func (e *encoder) release() {
	e.b = nil
	clear(e.strs)
	clear(e.keys)
	clear(e.cvals) // they hold values of the caller's positions
	clear(e.keyOrder)
	clear(e.states)
	e.states, e.keyOrder, e.cvals = e.states[:0], e.keyOrder[:0], e.cvals[:0]
	e.codes, e.prevCodes = e.codes[:0], e.prevCodes[:0]
	encoders.Put(e)
}

// ErrOrder is returned by Encode for positions not of one device or not in
// store order (fix time, then id).
var ErrOrder = errors.New("chunk: positions not of one device in store order")

// Encode encodes ps, one device's positions in store order (fix time, then
// strictly increasing id at equal fix times). ps must not be empty.
func Encode(ps []*model.Position) ([]byte, error) {
	if len(ps) == 0 {
		return nil, errors.New("chunk: no positions")
	}
	times := make([][3]stime, len(ps)) // fix, device, server
	for i, p := range ps {
		if p == nil {
			return nil, errors.New("chunk: nil position")
		}
		for j, t := range [3]time.Time{p.FixTime, p.DeviceTime, p.ServerTime} {
			var err error
			if times[i][j], err = canonTime(t); err != nil {
				return nil, fmt.Errorf("chunk: position %d: %w", p.ID, err)
			}
		}
		if i > 0 {
			q := ps[i-1]
			if p.DeviceID != q.DeviceID {
				return nil, fmt.Errorf("%w: device %d after %d", ErrOrder, p.DeviceID, q.DeviceID)
			}
			// The store's order is the fix time's instant: what JSON keeps
			// of it differs for zone offsets with seconds.
			if p.FixTime.Before(q.FixTime) || p.FixTime.Equal(q.FixTime) && p.ID <= q.ID {
				return nil, fmt.Errorf("%w: position %d after %d", ErrOrder, p.ID, q.ID)
			}
		}
	}
	first, last := ps[0], ps[len(ps)-1]
	h := Header{
		Count: len(ps), DeviceID: first.DeviceID,
		FirstFix: times[0][0].utc(), LastFix: times[len(ps)-1][0].utc(),
		FirstID: first.ID, LastID: last.ID,
	}
	e := encoders.Get().(*encoder)
	defer e.release()
	e.b = appendHeader(make([]byte, 0, 64+40*len(ps)), &h)
	e.b = append(e.b, 0) // body raw
	bodyAt := len(e.b)
	if err := e.body(ps, times); err != nil {
		return nil, err
	}
	return compress(e.b, bodyAt, len(ps)), nil
}

func (e *encoder) body(ps []*model.Position, times [][3]stime) error {
	// Column schemes: the first exact scale for every value of the column.
	// A column with one value throughout is written once (scheme
	// constant), with its bits.
	var schemes [nColumns]int
	for c := range nColumns {
		v0 := math.Float64bits(columns(ps[0])[c])
		schemes[c] = constant
		for _, p := range ps {
			if math.Float64bits(columns(p)[c]) != v0 {
				schemes[c] = 0
				break
			}
		}
		if schemes[c] == constant {
			e.b = appendXOR(append(e.b, constant), v0)
			continue
		}
	scheme:
		for s := 1; s < len(scales); s++ {
			for _, p := range ps {
				if _, ok := scales[s].int(columns(p)[c]); !ok {
					continue scheme
				}
			}
			schemes[c] = s
			break
		}
		e.b = append(e.b, byte(schemes[c]))
	}
	var (
		prevCol     [nColumns]int64 // n, or bits for XOR
		prevSec     = times[0][0].sec
		prevNs      = times[0][0].ns
		prevDelta   int64
		prevID      = ps[0].ID
		protocol    string
		address     *string
		geofences   []int64
		network     any
		attrs       map[string]any
		keys        []string
		keyIdx      []int
		attrsNonNil bool
	)
	for i, p := range ps {
		t := times[i]
		for _, v := range columns(p) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("chunk: position %d: unsupported value %v", p.ID, v)
			}
		}
		var flags uint64
		if p.Valid {
			flags |= fValid
		}
		if p.Outdated {
			flags |= fOutdated
		}
		if t[1].sec != t[0].sec || t[1].ns != t[0].ns {
			flags |= fDeviceTime
		}
		if t[0].ns != prevNs {
			flags |= fFixNs
		}
		if t[0].off != 0 || t[1].off != 0 || t[2].off != 0 {
			flags |= fZones
		}
		proto := canonString(p.Protocol)
		if proto != protocol {
			flags |= fProtocol
		}
		var addr *string
		if p.Address != nil {
			s := canonString(*p.Address)
			addr = &s
		}
		if (addr == nil) != (address == nil) || addr != nil && *addr != *address {
			flags |= fAddress
			if addr == nil {
				flags |= fAddressNil
			}
		}
		if (p.GeofenceIDs == nil) != (geofences == nil) || !slices.Equal(p.GeofenceIDs, geofences) {
			flags |= fGeofences
		}
		// The network is mostly the previous one: compared as it is, it
		// need not be canonicalised.
		net := network
		if !equalRaw(p.Network, network, 0) {
			var err error
			if net, _, err = canon(p.Network, 0); err != nil {
				return fmt.Errorf("chunk: position %d network: %w", p.ID, err)
			}
			if !equal(net, network) {
				flags |= fNetwork
			}
		}
		var err error
		if attrs, err = attrMap(p.Attributes); err != nil {
			return fmt.Errorf("chunk: position %d attributes: %w", p.ID, err)
		}
		if (attrs != nil) != attrsNonNil || !sameKeys(attrs, keys) {
			flags |= fKeys
			e.keyOrder = e.keyOrder[:0]
			for k := range attrs {
				e.keyOrder = append(e.keyOrder, k)
			}
			slices.Sort(e.keyOrder)
		} else {
			e.keyOrder = append(e.keyOrder[:0], keys...)
		}
		e.cvals = e.cvals[:0]
		for _, k := range e.keyOrder {
			cv, err := toCval(attrs[k])
			if err != nil {
				return fmt.Errorf("chunk: position %d attribute %q: %w", p.ID, k, err)
			}
			e.cvals = append(e.cvals, cv)
		}

		// Two bits a key: unchanged, changed with the tag of its previous
		// value (only the payload follows), or a tag and payload follow.
		prevCodes := append(e.prevCodes[:0], e.codes...)
		e.codes = e.codes[:0]
		for range (len(e.keyOrder) + 3) / 4 {
			e.codes = append(e.codes, 0)
		}
		for j, k := range e.keyOrder {
			st := &valState{dec: -1}
			if i, ok := e.keys[k]; ok {
				st = &e.states[i]
			}
			code := byte(codeTagged)
			if cv := &e.cvals[j]; st.same(cv) {
				code = codeUnchanged
			} else if st.tag != 0 && st.tagOf(cv) == st.tag {
				code = codeSameTag
			}
			e.codes[j/4] |= code << (2 * (j % 4))
		}
		e.prevCodes = prevCodes
		if flags&fKeys == 0 && attrs != nil && bytes.Equal(e.codes, prevCodes) {
			flags |= fSameCodes
		}

		e.b = binary.AppendUvarint(e.b, flags)
		delta := t[0].sec - prevSec
		e.b = binary.AppendUvarint(e.b, zigzag(delta-prevDelta))
		if flags&fFixNs != 0 {
			e.b = binary.AppendUvarint(e.b, zigzag(t[0].ns-prevNs))
		}
		prevSec, prevNs, prevDelta = t[0].sec, t[0].ns, delta
		e.b = binary.AppendUvarint(e.b, zigzag(p.ID-prevID))
		prevID = p.ID
		e.b = appendDelta(e.b, t[2].sec, t[2].ns, t[0].sec, t[0].ns)
		if flags&fDeviceTime != 0 {
			e.b = appendDelta(e.b, t[1].sec, t[1].ns, t[0].sec, t[0].ns)
		}
		if flags&fZones != 0 {
			for _, z := range t {
				e.b = binary.AppendVarint(e.b, int64(z.off/60))
			}
		}
		for c, v := range columns(p) {
			if s := schemes[c]; s == constant {
				continue
			} else if s > 0 {
				n, _ := scales[s].int(v)
				e.b = binary.AppendUvarint(e.b, zigzag(n-prevCol[c]))
				prevCol[c] = n
			} else {
				bits := int64(math.Float64bits(v))
				e.b = appendXOR(e.b, uint64(bits^prevCol[c]))
				prevCol[c] = bits
			}
		}
		if flags&fProtocol != 0 {
			e.string(proto)
			protocol = proto
		}
		if flags&fAddress != 0 {
			if addr != nil {
				e.string(*addr)
			}
			address = addr
		}
		if flags&fGeofences != 0 {
			if p.GeofenceIDs == nil {
				e.b = append(e.b, 0)
			} else {
				e.b = binary.AppendUvarint(e.b, uint64(len(p.GeofenceIDs))+1)
				var prev int64
				for _, id := range p.GeofenceIDs {
					e.b = binary.AppendUvarint(e.b, zigzag(id-prev))
					prev = id
				}
			}
			geofences = p.GeofenceIDs
		}
		if flags&fNetwork != 0 {
			if err := e.value(net, nil, 0); err != nil {
				return err
			}
			network = net
		}
		if flags&fKeys != 0 {
			attrsNonNil = attrs != nil
			keys = append(keys[:0], e.keyOrder...)
			keyIdx = keyIdx[:0]
			if attrs == nil {
				e.b = append(e.b, 0)
			} else {
				e.b = binary.AppendUvarint(e.b, uint64(len(keys))+1)
				for _, k := range keys {
					keyIdx = append(keyIdx, e.key(k))
				}
			}
		}
		if attrs != nil && flags&fSameCodes == 0 {
			e.b = append(e.b, e.codes...)
		}
		for j, k := range keys {
			code := e.codes[j/4] >> (2 * (j % 4)) & 3
			if code == codeUnchanged {
				continue
			}
			st := &e.states[keyIdx[j]]
			start := len(e.b)
			if err := e.attr(&e.cvals[j], st); err != nil {
				return fmt.Errorf("chunk: position %d attribute %q: %w", p.ID, k, err)
			}
			st.tag = e.b[start]
			if code == codeSameTag {
				e.b = append(e.b[:start], e.b[start+1:]...)
			}
		}
	}
	return nil
}

// string writes a reference to s in the chunk's string table: 0 and s the
// first time, its index+1 after.
func (e *encoder) string(s string) {
	if i, ok := e.strs[s]; ok {
		e.b = binary.AppendUvarint(e.b, uint64(i)+1)
		return
	}
	e.strs[s] = len(e.strs)
	e.b = append(e.b, 0)
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

// key writes a reference to k in the key dictionary and returns its index.
func (e *encoder) key(k string) int {
	if i, ok := e.keys[k]; ok {
		e.b = binary.AppendUvarint(e.b, uint64(i)+1)
		return i
	}
	i := len(e.keys)
	e.keys[k] = i
	e.states = append(e.states, valState{dec: -1})
	e.b = append(e.b, 0)
	e.b = binary.AppendUvarint(e.b, uint64(len(k)))
	e.b = append(e.b, k...)
	return i
}

// value writes a canonical value; st is the key's state, nil inside
// arrays and objects and for the network.
func (e *encoder) value(v any, st *valState, depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	if st == nil {
		st = &valState{dec: -1}
	}
	switch x := v.(type) {
	case nil:
		e.scalar(st, tNull)
	case bool:
		if x {
			e.scalar(st, tTrue)
		} else {
			e.scalar(st, tFalse)
		}
	case string:
		e.b = append(e.b, tString)
		e.string(x)
		st.kind, st.s = tString, x
	case float64:
		e.number(x, st)
	case []any:
		e.b = append(e.b, tArray)
		e.b = binary.AppendUvarint(e.b, uint64(len(x)))
		for _, el := range x {
			if err := e.value(el, nil, depth+1); err != nil {
				return err
			}
		}
		st.kind = 0
	case map[string]any:
		e.b = append(e.b, tObject)
		e.b = binary.AppendUvarint(e.b, uint64(len(x)))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e.key(k)
			if err := e.value(x[k], nil, depth+1); err != nil {
				return err
			}
		}
		st.kind = 0
	default:
		return fmt.Errorf("chunk: internal error: value of type %T", v)
	}
	return nil
}

// same tells whether v is a scalar equal to the key's previous value.
func (st *valState) same(v *cval) bool {
	switch v.kind {
	case tNull, tFalse, tTrue:
		return st.kind == v.kind
	case tString:
		return st.kind == tString && st.s == v.s
	case tXOR:
		return st.kind == tXOR && st.bits == math.Float64bits(v.f)
	}
	return false
}

func (e *encoder) scalar(st *valState, tag byte) {
	e.b = append(e.b, tag)
	st.kind = tag
}

// decimal returns v as n/10^k, with the key's previous k if it holds.
func (st *valState) decimal(v float64) (k int, n int64, ok bool) {
	if st.dec >= 0 {
		if n, ok = decimalAt(v, st.dec); ok {
			return st.dec, n, true
		}
	}
	for k = 0; k < len(pow10); k++ {
		if n, ok = decimalAt(v, k); ok {
			return k, n, true
		}
	}
	return -1, 0, false
}

// tagOf is the tag attr writes for v.
func (st *valState) tagOf(v *cval) byte {
	if v.kind == tXOR {
		if k, _, ok := st.decimal(v.f); ok {
			return byte(tDecimal + k)
		}
	}
	return v.kind
}

// attr writes an attribute value.
func (e *encoder) attr(v *cval, st *valState) error {
	switch v.kind {
	case tNull, tFalse, tTrue:
		e.scalar(st, v.kind)
	case tString:
		e.b = append(e.b, tString)
		e.string(v.s)
		st.kind, st.s = tString, v.s
	case tXOR:
		e.number(v.f, st)
	default:
		return e.value(v.c, st, 0)
	}
	return nil
}

func (e *encoder) number(v float64, st *valState) {
	bits := math.Float64bits(v)
	st.kind = tXOR
	if k, n, ok := st.decimal(v); ok {
		var base int64
		if st.dec == k {
			base = st.n
		}
		e.b = append(e.b, byte(tDecimal+k))
		e.b = binary.AppendUvarint(e.b, zigzag(n-base))
		st.bits, st.dec, st.n = bits, k, n
		return
	}
	e.b = append(e.b, tXOR)
	e.b = appendXOR(e.b, bits^st.bits)
	st.bits, st.dec = bits, -1
}
