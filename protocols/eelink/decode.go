package eelink

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errNotPacket = errors.New("eelink: not a 67 67 packet")

// packet is one 67 67 packet.
type packet struct {
	typ     byte
	serial  uint16
	content []byte
}

// readPacket reads the packet at the start of b and its size.
func readPacket(b []byte) (packet, int, error) {
	if len(b) < header+2 || b[0] != 0x67 || b[1] != 0x67 {
		return packet{}, 0, errNotPacket
	}
	size := header + int(binary.BigEndian.Uint16(b[3:]))
	if size < header+2 || size > len(b) {
		return packet{}, 0, fmt.Errorf("eelink: packet length %d does not fit %d bytes", size, len(b))
	}
	return packet{typ: b[2], serial: binary.BigEndian.Uint16(b[5:]), content: b[header+2 : size]}, size, nil
}

// decoded is what one packet gives.
type decoded struct {
	uniqueID    string // a login's IMEI
	position    *model.Position
	answer      []byte // the 67 67 answer, nil when none is due
	result      string // a command's text answer
	unsupported string
}

// Decode implements protocols.Stream for one packet cut by Split. The
// login is answered at once with the server time; every other packet but
// GPS (0x02) is answered once its position is stored.
func (p *Protocol) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	pk, size, err := readPacket(frame)
	if err != nil {
		return protocols.Result{}, err
	}
	if size != len(frame) {
		return protocols.Result{}, errors.New("eelink: bytes after the packet")
	}
	d, err := p.decodePacket(pk)
	if err != nil {
		return protocols.Result{UniqueID: d.uniqueID}, err
	}
	return d.result1(), nil
}

// result1 is a TCP packet's result.
func (d decoded) result1() protocols.Result {
	res := protocols.Result{UniqueID: d.uniqueID, CommandResult: d.result, Unsupported: d.unsupported}
	if d.unsupported != "" {
		return res
	}
	if d.position != nil {
		res.Positions = []*model.Position{d.position}
	}
	if d.uniqueID != "" {
		res.Reply = d.answer
	} else {
		res.Ack = d.answer
	}
	return res
}

// decodePacket decodes one packet's content.
func (p *Protocol) decodePacket(pk packet) (decoded, error) {
	var d decoded
	r := &reader{b: pk.content}
	var err error
	switch t := pk.typ; {
	case t == msgLogin:
		imei := r.take(8)
		if r.err != nil || !bcd(imei) || imei[0]>>4 != 0 {
			return d, errors.New("eelink: login without a BCD IMEI")
		}
		d.uniqueID = hex.EncodeToString(imei)[1:]
		content := binary.BigEndian.AppendUint32(nil, uint32(p.now.Now().Unix()))
		d.answer = answer(pk, append(content, 0x00, 0x01, 0x00)) // protocol version 1, no action
		return d, nil
	case t == msgGPS, t == msgAlarm, t == msgState, t == msgSMS:
		d.position, err = decodeOld(r, pk)
	case t >= msgNormal && t <= msgOBDCode:
		d.position, err = decodeNew(r, pk)
	case t == msgHeartbeat:
		if r.left() >= 2 {
			d.position = statusPosition(r.u16())
		}
	case t == msgOBD && r.left() == 4:
		d.position = statusPosition(r.u16()) // a status frame sent with the OBD type
	case t == msgOBD:
		d.position, err = decodeOBD(r)
	case t == msgDownlink:
		d.position, d.result, err = decodeDownlink(r, pk)
	default:
		d.unsupported = fmt.Sprintf("eelink packet type 0x%02X not decoded", t)
		return d, nil
	}
	if err != nil {
		return decoded{}, err
	}
	if pk.typ != msgGPS {
		d.answer = answer(pk, nil)
	}
	return d, nil
}

// answer is the server's packet for pk: same type and serial.
func answer(pk packet, content []byte) []byte {
	out := []byte{0x67, 0x67, pk.typ}
	out = binary.BigEndian.AppendUint16(out, uint16(2+len(content)))
	out = binary.BigEndian.AppendUint16(out, pk.serial)
	return append(out, content...)
}

func bcd(b []byte) bool {
	for _, c := range b {
		if c>>4 > 9 || c&0x0F > 9 {
			return false
		}
	}
	return true
}

func newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// setFix sets a fix at t; a fix flagged invalid at 0,0 (none since power
// up) makes the position outdated instead, keeping t as the device time.
func setFix(p *model.Position, t time.Time, valid bool, lat, lon float64) {
	p.DeviceTime = t
	if !valid && lat == 0 && lon == 0 {
		p.Outdated = true
		return
	}
	p.FixTime, p.Valid, p.Latitude, p.Longitude = t, valid, lat, lon
}

func unixTime(r *reader) time.Time { return time.Unix(r.u32(), 0).UTC() }

// degrees reads a coordinate in 1/1 800 000 degree.
func degrees(r *reader) float64 { return float64(r.s32()) / 1800000 }
