package teltonika

import (
	"encoding/binary"
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

var errBadFrame = errors.New("teltonika: not an IMEI, ping or AVL frame")

// acceptIMEI is the handshake answer for a device the server accepts.
var acceptIMEI = []byte{0x01}

// Decode implements protocols.Stream for frames returned by Split: the IMEI
// handshake, the 0xFF keep-alive and AVL packets. AVL positions are
// acknowledged with the record count through Result.Ack; codec 12/13/14
// messages yield CommandResult (or, for driver card and axle load
// messages, a position) and are not acknowledged. Data of a codec fleetd
// does not decode is neither acknowledged nor stored (Result.Unsupported).
// A bad CRC sets Result.ChecksumError; a frame with a bad CRC that does not
// parse is reported as such rather than as an error.
func (*Protocol) Decode(conn *protocols.Conn, frame []byte) (protocols.Result, error) {
	switch {
	case len(frame) == 1 && frame[0] == ping:
		return protocols.Result{}, nil
	case len(frame) >= 2 && (frame[0] != 0 || frame[1] != 0):
		imei, ok := parseIMEI(frame)
		if !ok {
			return protocols.Result{}, errBadFrame
		}
		return protocols.Result{UniqueID: imei, Reply: acceptIMEI}, nil
	case len(frame) < avlOverhead+minCodec:
		return protocols.Result{}, errBadFrame
	}
	// The data length field is not trusted: the codec data runs from after
	// it to the 4-byte CRC at the end of the frame.
	data := frame[8 : len(frame)-4]
	crcBad := uint32(crc16IBM(data)) != binary.BigEndian.Uint32(frame[len(frame)-4:])
	m := modelsOf(connModel(conn))
	avl, err := decodeAVL(&cursor{buf: data}, m)
	if err != nil && crcBad {
		// A capture cut short may lack the CRC: then the records run
		// into the last four bytes. Decode what is there; the frame is
		// stored only for a device marked to ignore checksums.
		avl, err = decodeAVL(&cursor{buf: frame[8:]}, m)
		if err != nil {
			return protocols.Result{ChecksumError: true}, nil
		}
	}
	if err != nil {
		return protocols.Result{}, err
	}
	res := protocols.Result{ChecksumError: crcBad, Unsupported: avl.unsupported}
	if avl.unsupported != "" {
		return res, nil
	}
	res.Positions, res.CommandResult = avl.positions, avl.command
	if !avl.message {
		res.Ack = binary.BigEndian.AppendUint32(nil, uint32(avl.count))
	}
	return res, nil
}

// DecodeDatagram implements protocols.Datagram. A UDP packet is: length (2),
// packet id (2), unused byte 0x01, AVL packet id (1), IMEI length (2), IMEI,
// then codec data without CRC. The answer echoes the packet id and the AVL
// packet id with the number of records accepted, as Teltonika specifies;
// messages and data fleetd does not decode get none, as over TCP.
func (*Protocol) DecodeDatagram(conn *protocols.Conn, packet []byte) (protocols.Result, error) {
	c := &cursor{buf: packet}
	c.short() // length
	packetID := c.take(2)
	c.byte() // unused
	avlID := c.byte()
	imei := string(c.take(c.short()))
	if err := c.err(); err != nil {
		return protocols.Result{}, err
	}
	if !isIMEI(imei) {
		return protocols.Result{}, errBadFrame
	}
	avl, err := decodeAVL(c, modelsOf(connModel(conn)))
	if err != nil {
		return protocols.Result{}, err
	}
	res := protocols.Result{UniqueID: imei, Unsupported: avl.unsupported}
	if avl.unsupported != "" {
		return res, nil
	}
	res.Positions, res.CommandResult = avl.positions, avl.command
	if !avl.message {
		res.Ack = []byte{0x00, 0x05, packetID[0], packetID[1], 0x01, byte(avlID), byte(avl.count)}
	}
	return res, nil
}

func connModel(conn *protocols.Conn) string {
	if conn == nil {
		return ""
	}
	return conn.Model
}
