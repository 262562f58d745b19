package castel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// cpsToKnots converts the cm/s speeds of positions to knots.
const cpsToKnots = 0.0194384449

var (
	errShort     = errors.New("castel: frame shorter than its header")
	errNotFrame  = errors.New("castel: not an @@ or $$ frame")
	errTruncated = errors.New("castel: truncated body")
)

// header is what precedes a frame's body.
type header struct {
	mpip    bool   // $$ form, no version byte
	version byte   // 0xFF in answers to MPIP frames, as Traccar writes them
	id      []byte // the 20-byte device id field, echoed in answers
	typ     uint16
}

// Decode implements protocols.Stream for frames cut by Split. The body
// runs from the type to the CRC before the closing \r\n. Answers that
// acknowledge positions go out after storage (Ack), the others at once.
func (p *Protocol) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) < minFrame || frame[len(frame)-2] != '\r' || frame[len(frame)-1] != '\n' {
		return protocols.Result{}, errShort
	}
	if frame[0] != frame[1] || frame[0] != '@' && frame[0] != '$' {
		return protocols.Result{}, errNotFrame
	}
	h := header{mpip: frame[0] == '$', version: 0xFF}
	rest := frame[4:]
	if !h.mpip {
		h.version, rest = rest[0], rest[1:]
		if len(rest) < 20+2+4 {
			return protocols.Result{}, errShort
		}
	}
	h.id, h.typ = rest[:20], binary.BigEndian.Uint16(rest[20:])
	end := len(frame) - 4
	res := protocols.Result{
		UniqueID:      strings.TrimFunc(string(h.id), func(r rune) bool { return r <= ' ' }),
		ChecksumError: crcX25(frame[:end]) != binary.LittleEndian.Uint16(frame[end:]),
	}
	r := &reader{buf: rest[22 : len(rest)-4]}
	var err error
	switch {
	case h.mpip:
		err = p.decodeMPIP(r, h, &res)
	case h.version == 3 || h.version == 4:
		err = p.decodeSC(r, h, &res)
	default:
		err = p.decodeCC(r, h, &res)
	}
	if err != nil {
		return protocols.Result{}, err
	}
	return res, nil
}

// DecodeDatagram implements protocols.Datagram: a UDP packet is one frame,
// answered on its own.
func (p *Protocol) DecodeDatagram(conn *protocols.Conn, packet []byte) (protocols.Result, error) {
	if n := frameSize(packet); n > 0 && n < len(packet) {
		packet = packet[:n]
	}
	return p.Decode(conn, packet)
}

// answer sets the frame's answer: an acknowledgement of the positions
// once they are stored, or at once when there are none.
func answer(res *protocols.Result, b []byte) {
	if len(res.Positions) > 0 {
		res.Ack = b
	} else {
		res.Reply = b
	}
}

// reply builds an answer with the frame's version and device id.
func reply(h header, typ uint16, body []byte) []byte {
	out := make([]byte, 0, 2+2+1+20+2+len(body)+4)
	out = append(out, '@', '@', 0, 0, h.version)
	out = append(out, h.id...)
	out = binary.BigEndian.AppendUint16(out, typ)
	out = append(out, body...)
	return finish(out)
}

// finish writes the length into a frame built from @@ on and appends the
// CRC and \r\n.
func finish(out []byte) []byte {
	binary.LittleEndian.PutUint16(out[2:], uint16(len(out)+4))
	out = binary.LittleEndian.AppendUint16(out, crcX25(out))
	return append(out, '\r', '\n')
}

// Message types of the CC family and the MPIP form.
const (
	ccLogin          = 0x4001
	ccLoginReply     = 0x8001
	ccHeartbeat      = 0x4206
	ccHeartbeatReply = 0x8206
	ccPetrolControl  = 0x4583 // server: fuel pump relay (engine stop/resume)

	mpipPosition = 0x4001
	mpipLogin    = 0x2001
	mpipAlarm    = 0x4201
	mpipStatus   = 0x4202
	mpipEight    = 0x4204
	mpipTrack    = 0x4206
)

// decodeCC decodes the CC family: a login with a position (answered
// 0x8001) and a heartbeat with a list of positions (answered 0x8206).
func (p *Protocol) decodeCC(r *reader, h header, res *protocols.Result) error {
	switch h.typ {
	case ccLogin:
		// Then the cell and the firmware and hardware versions, not kept.
		res.Positions = []*model.Position{readCCPosition(r, false)}
		if r.failed {
			return errTruncated
		}
		answer(res, reply(h, ccLoginReply, nil))
	case ccHeartbeat:
		r.u8() // 1 for positions from memory
		for range r.u8() {
			pos := readCCPosition(r, true)
			if r.failed {
				return errTruncated
			}
			res.Positions = append(res.Positions, pos)
		}
		answer(res, reply(h, ccHeartbeatReply, nil))
	default:
		res.Unsupported = fmt.Sprintf("CC message type 0x%04X not decoded", h.typ)
	}
	return nil
}

// readCCPosition reads a CC position: the fix, status (4), battery (1),
// odometer (4), geofence id, geofence flags and more flags (1 each), and
// in heartbeats the cell (LAC 2, cell id 2).
func readCCPosition(r *reader, cell bool) *model.Position {
	pos := readFix(r)
	pos.Attributes["status"] = int64(r.u32())
	pos.Attributes["battery"] = r.u8()
	pos.Attributes["odometer"] = int64(r.u32())
	r.take(3)
	if cell {
		lac, cid := r.u16(), r.u16()
		pos.Network = cellNetwork(lac, cid)
	}
	return pos
}

// decodeMPIP decodes the $$ form: a position (answered with its own type),
// a login with a position (answered with a 0x1001 frame without version),
// alarm, status and track positions, and a block of eight positions.
func (p *Protocol) decodeMPIP(r *reader, h header, res *protocols.Result) error {
	switch h.typ {
	case mpipPosition:
		res.Positions = []*model.Position{readFix(r)}
		if r.failed {
			return errTruncated
		}
		answer(res, reply(h, mpipPosition, nil))
	case mpipLogin:
		r.take(4 + 4 + 1) // index, unix time, a flag byte
		res.Positions = []*model.Position{readFix(r)}
		if r.failed {
			return errTruncated
		}
		// The answer is an @@ frame without a version byte: type 0x1001,
		// four zero bytes and eight 0xFF.
		out := append([]byte{'@', '@', 0, 0}, h.id...)
		out = append(out, 0x10, 0x01, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
		answer(res, finish(out))
	case mpipAlarm, mpipStatus, mpipTrack:
		res.Positions = []*model.Position{readFix(r)}
	case mpipEight:
		for range 8 {
			res.Positions = append(res.Positions, readFix(r))
			r.take(31)
		}
	default:
		res.Unsupported = fmt.Sprintf("MPIP message type 0x%04X not decoded", h.typ)
		return nil
	}
	if r.failed {
		return errTruncated
	}
	return nil
}

// readFix reads a position: day, month, year (2-digit), hour, minute,
// second, latitude and longitude (4 each, 1/3,600,000 degree), speed (2,
// cm/s), course (2, 0.1 degree) and flags (bit 1 north, bit 0 east, bits
// 2-3 fix, high nibble satellites).
func readFix(r *reader) *model.Position {
	d := r.take(6)
	pos := &model.Position{Protocol: Name, Attributes: make(model.Attributes, 8)}
	if d != nil {
		t := time.Date(2000+int(d[2]), time.Month(d[1]), int(d[0]), int(d[3]), int(d[4]), int(d[5]), 0, time.UTC)
		pos.FixTime, pos.DeviceTime = t, t
	}
	lat := float64(r.u32()) / 3600000
	lon := float64(r.u32()) / 3600000
	pos.Speed = float64(r.u16()) * cpsToKnots
	pos.Course = float64(r.u16()) / 10
	flags := r.u8()
	if flags&0x02 == 0 {
		lat = -lat
	}
	if flags&0x01 == 0 {
		lon = -lon
	}
	// A corrupt coordinate past the poles is no fix.
	if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 {
		pos.Latitude, pos.Longitude = lat, lon
		pos.Valid = flags&0x0C != 0
	}
	pos.Attributes["sat"] = flags >> 4
	return pos
}

// cellNetwork is the serving cell in Traccar's Network shape; Castel
// frames carry no country or network code.
func cellNetwork(lac, cid int) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{{
		"mobileCountryCode": 0, "mobileNetworkCode": 0, "locationAreaCode": lac, "cellId": int64(cid),
	}}}
}

// reader walks a little-endian buffer; a read past the end sets failed
// and returns zeros, so callers check once.
type reader struct {
	buf    []byte
	failed bool
}

func (r *reader) take(n int) []byte {
	if r.failed || n < 0 || n > len(r.buf) {
		r.failed = true
		return nil
	}
	out := r.buf[:n:n]
	r.buf = r.buf[n:]
	return out
}

func (r *reader) u8() int {
	if b := r.take(1); b != nil {
		return int(b[0])
	}
	return 0
}

func (r *reader) u16() int {
	if b := r.take(2); b != nil {
		return int(binary.LittleEndian.Uint16(b))
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}
