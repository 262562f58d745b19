package meiligao

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errBadFrame = errors.New("meiligao: not a $$ frame")

// frame is a frame cut into its parts.
type frame struct {
	id    []byte // the 7 BCD bytes, echoed in answers
	cmd   int
	data  []byte
	crcOK bool
}

// parseFrame cuts a frame returned by Split (or a datagram): the data runs
// from the command to the CRC before the closing "\r\n".
func parseFrame(b []byte) (frame, error) {
	if len(b) < minFrame || b[0] != b[1] || (b[0] != '$' && b[0] != '@') || !validID(b[4:11]) {
		return frame{}, errBadFrame
	}
	body := b
	if n := len(b); b[n-2] == '\r' && b[n-1] == '\n' {
		body = b[:n-2]
	}
	n := len(body)
	return frame{
		id:    b[4:11],
		cmd:   int(binary.BigEndian.Uint16(b[11:13])),
		data:  body[header : n-2],
		crcOK: crc16(body[:n-2]) == binary.BigEndian.Uint16(body[n-2:]),
	}, nil
}

// Decode implements protocols.Stream. A CRC that does not match sets
// Result.ChecksumError; the frame is decoded all the same.
func (p *Protocol) Decode(c *protocols.Conn, b []byte) (protocols.Result, error) {
	f, err := parseFrame(b)
	if err != nil {
		return protocols.Result{}, err
	}
	res := protocols.Result{UniqueID: deviceID(f.id), ChecksumError: !f.crcOK}
	if res.UniqueID == "" {
		return protocols.Result{}, errBadFrame
	}
	var pos *model.Position
	switch f.cmd {
	case cmdLogin:
		res.Reply = message(f.id, cmdLoginReply, []byte{0x01})
		return res, nil
	case cmdHeartbeat:
		res.Reply = message(f.id, cmdHeartbeat, []byte{0x01})
		return res, nil
	case cmdPhotoStart, cmdPhotoEnd:
		if len(f.data) < 1 {
			return protocols.Result{}, errors.New("meiligao: photo frame without its index")
		}
		// The device announces a picture and is told to send it; at
		// the end it is told that no packet is missing.
		if f.cmd == cmdPhotoStart {
			res.Reply = message(f.id, cmdPhotoStartOK, f.data[:1])
			startPhoto(c, f.data[0])
		} else {
			res.Reply = message(f.id, cmdRetransmission, []byte{f.data[0], 0, 0})
		}
		return res, nil
	case cmdPhotoData:
		addPhotoPacket(c, f)
		return res, nil
	case cmdServer:
		res.Unsupported = "server address request (0x0002) not answered: fleetd does not know the address devices should use"
		return res, nil
	case cmdRetransmission:
		res.Positions, err = decodeRetransmission(f.data)
	case cmdPosition, cmdPositionLogged, cmdAlarm, cmdPositionImage:
		if pos, err = decodeReport(f, connModel(c)); err == nil && f.cmd == cmdPositionImage {
			pos.Media = takePhoto(c)
		}
	case cmdRFID:
		pos, err = decodeRFID(f.data)
	case cmdOBD, cmdOBDAverage:
		pos = p.outdated()
		err = decodeOBD(pos, f.cmd, string(f.data))
	case cmdDTC:
		pos = p.outdated()
		pos.Attributes["dtcs"] = strings.ReplaceAll(string(f.data), ",", " ")
	default:
		res.Unsupported = fmt.Sprintf("command 0x%04x not decoded", f.cmd)
		return res, nil
	}
	if err == nil && pos != nil {
		res.Positions = []*model.Position{pos}
	}
	for _, pos := range res.Positions {
		if err == nil {
			err = protocols.CheckFix(pos)
		}
	}
	if err != nil {
		if res.ChecksumError {
			// A corrupt frame: kept in the inbox, not an error.
			return protocols.Result{UniqueID: res.UniqueID, ChecksumError: true}, nil
		}
		return protocols.Result{}, err
	}
	return res, nil
}

// DecodeDatagram implements protocols.Datagram: each frame of a packet
// (usually one) is decoded; their positions and answers are joined.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, packet []byte) (protocols.Result, error) {
	var out protocols.Result
	frames := 0
	for rest := packet; len(rest) > 0; {
		adv, b, err := p.Split(rest, true)
		if err != nil || adv <= 0 {
			break
		}
		rest = rest[adv:]
		if b == nil {
			continue
		}
		frames++
		res, err := p.Decode(c, b)
		if err != nil {
			return protocols.Result{}, err
		}
		out.UniqueID = res.UniqueID
		out.Positions = append(out.Positions, res.Positions...)
		out.Reply = append(out.Reply, res.Reply...)
		out.ChecksumError = out.ChecksumError || res.ChecksumError
		if res.Unsupported != "" {
			out.Unsupported = res.Unsupported
		}
	}
	if frames == 0 {
		return protocols.Result{}, errBadFrame
	}
	if len(out.Positions) > 0 || out.Reply != nil {
		out.Unsupported = "" // the packet has something to keep
	}
	return out, nil
}

func connModel(c *protocols.Conn) string {
	if c == nil {
		return ""
	}
	return c.Model
}
