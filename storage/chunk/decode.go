package chunk

import (
	"encoding/binary"
	"maps"
	"math"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// reader reads varints; the first error sticks and later reads return 0.
type reader struct {
	b   []byte
	err error
}

// Varints reads a run of varints for code outside the package (storage's
// id blocks): the reader chunks and records use.
type Varints struct{ r reader }

// NewVarints reads b.
func NewVarints(b []byte) *Varints { return &Varints{reader{b: b}} }

func (v *Varints) Uvarint() uint64 { return v.r.uvarint() }
func (v *Varints) Varint() int64   { return v.r.varint() }

// More tells whether bytes are left and nothing failed yet.
func (v *Varints) More() bool { return len(v.r.b) > 0 && v.r.err == nil }

// OK tells whether every read so far succeeded.
func (v *Varints) OK() bool { return v.r.err == nil }

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = corrupt(what)
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// bytes returns the next n bytes (not copied).
func (r *reader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail("truncated")
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

// length reads a count of items that take a byte each at least.
func (r *reader) length() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail("length")
		return 0
	}
	return int(n)
}

// optLength reads 0 for null, else a count+1 as length does; it returns
// -1 for null.
func (r *reader) optLength() int {
	n := r.uvarint()
	if n > uint64(len(r.b))+1 {
		r.fail("length")
		return 0
	}
	return int(n) - 1
}

func (r *reader) xor() uint64 {
	c := r.byte()
	if c == 0 {
		return 0
	}
	c--
	lz, tz := int(c>>3), int(c&7)
	if lz+tz > 7 || c>>6 != 0 {
		r.fail("xor")
		return 0
	}
	var x uint64
	for _, b := range r.bytes(uint64(8 - lz - tz)) {
		x = x<<8 | uint64(b)
	}
	return x << (8 * tz)
}

// delta reads a time written by appendDelta against (bsec, bns).
func (r *reader) delta(bsec, bns int64) (sec, ns int64) {
	u := r.uvarint()
	if u&1 == 0 {
		d := unzigzag(u>>1) + bns
		sec, ns = bsec+d/1e9, d%1e9
		if ns < 0 {
			sec, ns = sec-1, ns+1e9
		}
		return sec, ns
	}
	sec, ns = bsec+unzigzag(u>>1), int64(r.uvarint())
	if ns >= 1e9 {
		r.fail("nanoseconds")
	}
	return sec, ns
}

type decoder struct {
	r       reader
	h       Header
	strs    []string
	keys    []string
	states  []decState
	schemes [nColumns]int
	consts  [nColumns]float64
	zones   map[int]*time.Location
}

type decState struct {
	valState
	v any // the previous value, for an unchanged key
}

// Decode decodes a chunk made by Encode.
func Decode(data []byte) ([]*model.Position, error) {
	d, err := newDecoder(data)
	if err != nil {
		return nil, err
	}
	slab := make([]model.Position, d.h.Count)
	out := make([]*model.Position, d.h.Count)
	for i := range out {
		out[i] = &slab[i]
	}
	i := 0
	err = d.each(func() *model.Position { return out[i] }, func(*model.Position) bool { i++; return true })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DecodeEach calls fn with data's positions in order until fn returns
// false. Each position is new: fn may keep it.
func DecodeEach(data []byte, fn func(*model.Position) bool) error {
	d, err := newDecoder(data)
	if err != nil {
		return err
	}
	return d.each(func() *model.Position { return new(model.Position) }, fn)
}

func newDecoder(data []byte) (*decoder, error) {
	h, body, err := readHeader(data)
	if err != nil {
		return nil, err
	}
	if h.Count == 0 {
		return nil, corrupt("no positions")
	}
	if body, err = decompress(body); err != nil {
		return nil, err
	}
	if h.Count > len(body) { // every position takes a byte of it at least
		return nil, corrupt("count")
	}
	d := &decoder{r: reader{b: body}, h: h}
	for c := range nColumns {
		s := int(d.r.byte())
		if s == constant {
			d.consts[c] = math.Float64frombits(d.r.xor())
		} else if s >= len(scales) {
			return nil, corrupt("column scheme")
		}
		d.schemes[c] = s
	}
	return d, d.r.err
}

func (d *decoder) each(alloc func() *model.Position, fn func(*model.Position) bool) error {
	r := &d.r
	var (
		prevCol   [nColumns]int64
		prevSec   = d.h.FirstFix.Unix()
		prevNs    = int64(d.h.FirstFix.Nanosecond())
		prevDelta int64
		prevID    = d.h.FirstID
		protocol  string
		address   *string
		geofences []int64
		network   *template
		attrsNil  = true
		keyIdx    []int
		// proto holds the attributes of the position before; a position's
		// map is its clone (a copy of its memory, no rehashing) with the
		// changed values set.
		proto map[string]any
		codes []byte // the attribute codes, two bits a key
	)
	for range d.h.Count {
		flags := r.uvarint()
		if flags >= 1<<nFlags {
			return corrupt("flags")
		}
		delta := prevDelta + unzigzag(r.uvarint())
		fixSec, fixNs := prevSec+delta, prevNs
		if flags&fFixNs != 0 {
			fixNs += unzigzag(r.uvarint())
		}
		if fixNs < 0 || fixNs >= 1e9 {
			return corrupt("nanoseconds")
		}
		prevSec, prevNs, prevDelta = fixSec, fixNs, delta
		id := prevID + unzigzag(r.uvarint())
		prevID = id
		srvSec, srvNs := r.delta(fixSec, fixNs)
		devSec, devNs := fixSec, fixNs
		if flags&fDeviceTime != 0 {
			devSec, devNs = r.delta(fixSec, fixNs)
		}
		var offs [3]int
		if flags&fZones != 0 {
			for j := range offs {
				o := r.varint()
				if o <= -24*60 || o >= 24*60 {
					return corrupt("zone offset")
				}
				offs[j] = int(o) * 60
			}
		}
		p := alloc()
		p.ID, p.DeviceID = id, d.h.DeviceID
		p.Valid, p.Outdated = flags&fValid != 0, flags&fOutdated != 0
		p.FixTime = d.time(fixSec, fixNs, offs[0])
		p.DeviceTime = d.time(devSec, devNs, offs[1])
		p.ServerTime = d.time(srvSec, srvNs, offs[2])
		var col [nColumns]float64
		for c := range col {
			if s := d.schemes[c]; s == constant {
				col[c] = d.consts[c]
			} else if s > 0 {
				n := prevCol[c] + unzigzag(r.uvarint())
				col[c], prevCol[c] = scales[s].float(n), n
			} else {
				bits := uint64(prevCol[c]) ^ r.xor()
				col[c], prevCol[c] = math.Float64frombits(bits), int64(bits)
			}
		}
		for _, v := range col {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return corrupt("number")
			}
		}
		p.Latitude, p.Longitude, p.Altitude = col[cLat], col[cLon], col[cAlt]
		p.Speed, p.Course, p.Accuracy = col[cSpeed], col[cCourse], col[cAccuracy]
		if flags&fProtocol != 0 {
			protocol = d.string()
		}
		p.Protocol = protocol
		if flags&fAddress != 0 {
			address = nil
			if flags&fAddressNil == 0 {
				s := d.string()
				address = &s
			}
		}
		if address != nil {
			s := *address
			p.Address = &s
		}
		if flags&fGeofences != 0 {
			geofences = nil
			if n := r.optLength(); n >= 0 {
				geofences = make([]int64, n)
				var prev int64
				for j := range geofences {
					prev += unzigzag(r.uvarint())
					geofences[j] = prev
				}
			}
		}
		if geofences != nil {
			p.GeofenceIDs = append(make([]int64, 0, len(geofences)), geofences...)
		}
		if flags&fNetwork != 0 {
			p.Network = d.value(nil, 0)
			network = newTemplate(p.Network)
		} else if network != nil {
			p.Network = network.make()
		}
		if flags&fKeys != 0 {
			keyIdx = keyIdx[:0]
			n := r.optLength()
			attrsNil = n < 0
			for range n {
				keyIdx = append(keyIdx, d.key())
			}
			proto = make(map[string]any, len(keyIdx))
		}
		if !attrsNil {
			if flags&fSameCodes == 0 {
				codes = r.bytes(uint64(len(keyIdx)+3) / 4)
			} else if flags&fKeys != 0 || len(codes) != (len(keyIdx)+3)/4 {
				r.fail("no previous codes")
			}
			for j, k := range keyIdx {
				if r.err != nil {
					break
				}
				st := &d.states[k]
				switch codes[j/4] >> (2 * (j % 4)) & 3 {
				case codeUnchanged:
					if st.kind == 0 {
						r.fail("no previous value")
					} else if flags&fKeys != 0 {
						proto[d.keys[k]] = st.v
					}
				case codeSameTag:
					if st.tag == 0 {
						r.fail("no previous tag")
					}
					proto[d.keys[k]] = d.valueOf(st.tag, st, 0)
				case codeTagged:
					st.tag = r.byte()
					proto[d.keys[k]] = d.valueOf(st.tag, st, 0)
				default:
					r.fail("value code")
				}
			}
			if r.err == nil && len(proto) != len(keyIdx) {
				r.fail("duplicate key")
			}
			// Arrays and objects are decoded anew for every position (they
			// are never "unchanged"): the clone shares none with proto's
			// next use.
			p.Attributes = maps.Clone(proto)
		}
		if r.err != nil {
			return r.err
		}
		if !fn(p) {
			return nil
		}
	}
	if len(r.b) != 0 {
		return corrupt("trailing data")
	}
	if prevID != d.h.LastID || prevSec != d.h.LastFix.Unix() || prevNs != int64(d.h.LastFix.Nanosecond()) {
		return corrupt("last position is not the header's")
	}
	return nil
}

// time builds a time as encoding/json parses it (jsonTime), sharing the
// chunk's fixed zones.
func (d *decoder) time(sec, ns int64, off int) time.Time {
	if d.zones == nil {
		d.zones = map[int]*time.Location{}
	}
	return jsonTime(sec, ns, off, d.zones)
}

// jsonTime builds a time as encoding/json parses it: UTC for offset 0,
// else the local zone if its offset then is the same, else a fixed zone,
// from zones if it has one (and kept there, if it is not nil).
func jsonTime(sec, ns int64, off int, zones map[int]*time.Location) time.Time {
	t := time.Unix(sec, ns)
	if off == 0 {
		return t.UTC()
	}
	if _, o := t.Zone(); o == off { // time.Unix gives Local
		return t
	}
	loc := zones[off]
	if loc == nil {
		loc = time.FixedZone("", off)
		if zones != nil {
			zones[off] = loc
		}
	}
	return t.In(loc)
}

func (d *decoder) string() string {
	i := d.r.uvarint()
	if i == 0 {
		s := string(d.r.bytes(d.r.uvarint()))
		d.strs = append(d.strs, s)
		return s
	}
	if i > uint64(len(d.strs)) {
		d.r.fail("string reference")
		return ""
	}
	return d.strs[i-1]
}

// key reads a key reference and returns the key's index.
func (d *decoder) key() int {
	i := d.r.uvarint()
	if i == 0 {
		d.keys = append(d.keys, string(d.r.bytes(d.r.uvarint())))
		d.states = append(d.states, decState{valState: valState{dec: -1}})
		return len(d.keys) - 1
	}
	if i > uint64(len(d.keys)) {
		d.r.fail("key reference")
		return 0
	}
	return int(i - 1)
}

func (d *decoder) value(st *decState, depth int) any {
	return d.valueOf(d.r.byte(), st, depth)
}

// valueOf reads the payload of a value with tag.
func (d *decoder) valueOf(tag byte, st *decState, depth int) any {
	r := &d.r
	if depth > maxDepth {
		r.fail("nesting")
		return nil
	}
	var tmp decState
	if st == nil {
		tmp.dec = -1
		st = &tmp
	}
	switch {
	case r.err != nil:
		return nil
	case tag == tNull:
		st.kind, st.v = tNull, nil
		return nil
	case tag == tFalse:
		st.kind, st.v = tFalse, false
		return false
	case tag == tTrue:
		st.kind, st.v = tTrue, true
		return true
	case tag == tString:
		s := d.string()
		st.kind, st.s, st.v = tString, s, s
		return s
	case tag == tArray:
		// Grown as elements come: corrupt lengths must not allocate.
		n := r.length()
		a := make([]any, 0, min(n, 64))
		for range n {
			a = append(a, d.value(nil, depth+1))
			if r.err != nil {
				return nil
			}
		}
		st.kind, st.v = 0, nil
		return a
	case tag == tObject:
		n := r.length()
		m := make(map[string]any, min(n, 64))
		for range n {
			k := d.key()
			if r.err != nil {
				return nil
			}
			m[d.keys[k]] = d.value(nil, depth+1)
		}
		st.kind, st.v = 0, nil
		return m
	case tag == tXOR:
		st.bits ^= r.xor()
		st.dec = -1
	case tag >= tDecimal && int(tag) < tEnd:
		k := int(tag - tDecimal)
		var base int64
		if st.dec == k {
			base = st.n
		}
		st.n = base + unzigzag(r.uvarint())
		st.dec = k
		st.bits = math.Float64bits(float64(st.n) / pow10[k])
	default:
		r.fail("value tag")
		return nil
	}
	v := math.Float64frombits(st.bits)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		r.fail("number")
		return nil
	}
	st.kind, st.v = tXOR, v
	return v
}

// template makes copies of a decoded value: maps are cloned (a copy of
// their memory, no rehashing), with the arrays and objects in them made
// anew.
type template struct {
	v    any // the value; for maps and slices, the prototype to clone
	keys []string
	idx  []int
	sub  []*template // arrays and objects in v, at keys or idx
}

func newTemplate(v any) *template {
	t := &template{v: v}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				t.keys = append(t.keys, k)
				t.sub = append(t.sub, newTemplate(e))
			}
		}
	case []any:
		for i, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				t.idx = append(t.idx, i)
				t.sub = append(t.sub, newTemplate(e))
			}
		}
	}
	return t
}

func (t *template) make() any {
	switch x := t.v.(type) {
	case map[string]any:
		m := maps.Clone(x)
		for i, k := range t.keys {
			m[k] = t.sub[i].make()
		}
		return m
	case []any:
		a := make([]any, len(x))
		copy(a, x)
		for i, j := range t.idx {
			a[j] = t.sub[i].make()
		}
		return a
	}
	return t.v
}
