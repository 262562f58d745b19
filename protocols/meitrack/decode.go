package meitrack

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errBadFrame = errors.New("meitrack: not a $$ frame")

// Decode implements protocols.Stream. A checksum that does not match sets
// Result.ChecksumError; the frame is decoded all the same.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	if !bytes.HasPrefix(frame, []byte("$$")) {
		return protocols.Result{}, errBadFrame
	}
	h, st := parseHeader(frame)
	if st != hdrOK {
		return protocols.Result{}, errBadFrame
	}
	body, sumOK := frameBody(frame)
	if len(body) < h.data {
		return protocols.Result{}, errBadFrame
	}
	res := protocols.Result{UniqueID: h.imei, ChecksumError: !sumOK}
	data := body[h.data:]
	if len(data) > 0 {
		data = data[1:] // the comma after the type
	}
	var err error
	switch h.typ {
	case "AAC":
		// The device asks for an acknowledgement of its reports.
		res.Reply = message(h.flag, h.imei, "AAC,1")
	case "CCC":
		res.Positions, err = decodeCCC(data)
		if err == nil {
			res.Ack = message(h.flag, h.imei, "CCC,"+strconv.Itoa(len(res.Positions)))
		}
	case "CCE":
		res.Positions, err = decodeCCE(data)
	case "D03":
		// A picture was taken: ask for its first packet.
		res.Reply = photoRequest(h.imei, "camera_picture.jpg", 0)
	case "D00":
		var pos *model.Position
		if res.Reply, pos, err = p.photoPacket(c, h.imei, data, sumOK); pos != nil {
			res.Positions = []*model.Position{pos}
		}
	case "AAA", "AFF":
		var pos *model.Position
		if pos, err = decodeReport(string(data), connModel(c)); err == nil {
			res.Positions = []*model.Position{pos}
		}
	default:
		if isCommandAnswer(h.typ) {
			res.CommandResult = h.typ
			if len(data) > 0 {
				res.CommandResult += "," + string(data)
			}
			return res, nil
		}
		res.Unsupported = fmt.Sprintf("message type %.3q not decoded", h.typ)
	}
	if err != nil {
		if res.ChecksumError {
			// A corrupt frame: kept in the inbox, not an error.
			return protocols.Result{UniqueID: h.imei, ChecksumError: true}, nil
		}
		return protocols.Result{}, err
	}
	return res, nil
}

// isCommandAnswer reports whether typ is a command type (a letter A-F and
// two digits, as "C01" or "D82"): the device answers a command under its
// type.
func isCommandAnswer(typ string) bool {
	return len(typ) == 3 && typ[0] >= 'A' && typ[0] <= 'F' &&
		typ[1] >= '0' && typ[1] <= '9' && typ[2] >= '0' && typ[2] <= '9'
}

// DecodeDatagram implements protocols.Datagram: a UDP packet is one
// frame, with or without its "\r\n", whatever its length field says.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, packet []byte) (protocols.Result, error) {
	return p.Decode(c, packet)
}

// photoRequest asks the device for packet index of a picture file.
func photoRequest(imei, file string, index int) []byte {
	return message('O', imei, "D00,"+file+","+strconv.Itoa(index))
}

// photo is a picture being received on a connection, packet by packet;
// its bytes are in the connection's Parts.
type photo struct {
	file        string
	next, total int // the packet expected next, of total
}

// maxPhoto bounds a picture's bytes (a camera's 640x480 JPEG is about
// 50 KB).
const maxPhoto = 2 << 20

// photoPacket reads a D00 frame "<file>,<packets>,<index>,<jpeg bytes>".
// The transfer is carried on as the device expects: it sends eight
// packets, then waits to be asked for the next one. A connection the
// listener has identified joins the packets, from the first, in order; the
// last yields a position at the last known place with the picture as its
// file (its "image" attribute). The device expects no answer to the last
// packet, so nothing tells it whether the picture was kept: one whose
// packets came out of order, with a bad checksum, over maxPhoto or past
// the shared media budget is dropped.
func (p *Protocol) photoPacket(c *protocols.Conn, imei string, data []byte, sumOK bool) ([]byte, *model.Position, error) {
	parts := bytes.SplitN(data, []byte(","), 4)
	if len(parts) < 4 {
		return nil, nil, errors.New("meitrack: D00 frame without file, count and index")
	}
	file := string(parts[0])
	total, err1 := strconv.Atoi(string(parts[1]))
	index, err2 := strconv.Atoi(string(parts[2]))
	if err1 != nil || err2 != nil || index < 0 || index >= total {
		return nil, nil, errors.New("meitrack: D00 packet count or index is not a number")
	}
	var reply []byte
	if next := index + 1; next < total && next%8 == 0 {
		reply = photoRequest(imei, file, next)
	}
	held := c.Parts() // nil until the connection's device is known
	if held == nil {
		return reply, nil, nil
	}
	ph, _ := c.State.(*photo)
	switch {
	case index == 0:
		ph = &photo{file: file, total: total}
		held.Drop()
	case ph == nil || ph.file != file || ph.total != total || ph.next != index:
		ph = nil // a transfer this connection did not see from its start, or a packet missed
	}
	if ph == nil || !sumOK || !held.Add(parts[3], maxPhoto) {
		c.State = nil
		held.Drop()
		return reply, nil, nil
	}
	ph.next++
	if index < total-1 {
		c.State = ph
		return reply, nil, nil
	}
	c.State = nil // whole: the picture is the position's now
	pos := newPosition()
	pos.Outdated = true
	setTime(pos, p.now.Now())
	pos.Media = protocols.JPEG(held.Take())
	return reply, pos, nil
}

// splitFields splits s at commas.
func splitFields(s string) []string { return strings.Split(s, ",") }

func connModel(c *protocols.Conn) string {
	if c == nil {
		return ""
	}
	return c.Model
}
