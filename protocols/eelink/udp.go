package eelink

import (
	"encoding/binary"
	"encoding/hex"
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

// udpHeader is "EL", the length (of what follows it), the checksum and the
// IMEI (8 BCD bytes, leading 0).
const udpHeader = 2 + 2 + 2 + 8

var errNotDatagram = errors.New("eelink: not an EL datagram")

// DecodeDatagram implements protocols.Datagram: an "EL" header naming the
// device, then packets as over TCP. The answers go back in one datagram
// under the same header: the login's at once (Reply), the others' once
// the positions are stored (Ack). A wrong checksum (over the IMEI and
// the packets) sets ChecksumError.
func (p *Protocol) DecodeDatagram(_ *protocols.Conn, dg []byte) (protocols.Result, error) {
	imei, ok := datagramIMEI(dg)
	if !ok {
		return protocols.Result{}, errNotDatagram
	}
	res := protocols.Result{
		UniqueID:      imei,
		ChecksumError: binary.BigEndian.Uint16(dg[4:]) != checksum(dg[6:]),
	}
	var replies, acks []byte
	for rest := dg[udpHeader:]; len(rest) > 0; {
		pk, size, err := readPacket(rest)
		if err != nil {
			return protocols.Result{UniqueID: imei}, err
		}
		rest = rest[size:]
		d, err := p.decodePacket(pk)
		if err != nil {
			return protocols.Result{UniqueID: imei}, err
		}
		if d.unsupported != "" {
			// Answering the rest would tell the device the whole
			// datagram was taken: none is answered.
			return protocols.Result{UniqueID: imei, Unsupported: d.unsupported}, nil
		}
		if d.position != nil {
			res.Positions = append(res.Positions, d.position)
		}
		if d.result != "" {
			res.CommandResult = d.result
		}
		if pk.typ == msgLogin {
			replies = append(replies, d.answer...)
		} else {
			acks = append(acks, d.answer...)
		}
	}
	res.Reply, res.Ack = wrap(imei, replies), wrap(imei, acks)
	return res, nil
}

// datagramIMEI checks the header and length of an EL datagram and reads
// its IMEI.
func datagramIMEI(dg []byte) (string, bool) {
	if len(dg) < udpHeader+header+2 || dg[0] != 'E' || dg[1] != 'L' ||
		int(binary.BigEndian.Uint16(dg[2:])) != len(dg)-4 {
		return "", false
	}
	imei := dg[6:udpHeader]
	if !bcd(imei) || imei[0]>>4 != 0 {
		return "", false
	}
	return hex.EncodeToString(imei)[1:], true
}

// wrap puts packets under the EL header for imei; nil when there are none.
func wrap(imei string, packets []byte) []byte {
	if len(packets) == 0 {
		return nil
	}
	body, _ := hex.DecodeString("0" + imei)
	body = append(body, packets...)
	out := []byte{'E', 'L'}
	out = binary.BigEndian.AppendUint16(out, uint16(2+len(body)))
	out = binary.BigEndian.AppendUint16(out, checksum(body))
	return append(out, body...)
}

// checksum is Eelink's: a 16-bit sum rotated left by one bit before each
// byte is added.
func checksum(b []byte) uint16 {
	var sum uint16
	for _, c := range b {
		sum = (sum<<1 | sum>>15) + uint16(c)
	}
	return sum
}
