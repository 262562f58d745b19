package ruptela

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Commands a device sends (the first byte after the IMEI).
const (
	cmdRecords       = 1
	cmdConfiguration = 2  // answer to a configuration command
	cmdVersion       = 3  // answer to a version request
	cmdFirmware      = 4  // answer to a firmware update command
	cmdSetConnection = 5  // server only: change the server address
	cmdSetOdometer   = 6  // server only
	cmdSMSAnswer     = 7  // answer to an SMS command sent over GPRS
	cmdSMS           = 8  // server only: an SMS command over GPRS
	cmdDTCs          = 9  // diagnostic trouble codes
	cmdIdentify      = 15 // identification at connect
	cmdHeartbeat     = 16
	cmdSetIO         = 17 // answer to an output command
	cmdFiles         = 37 // file (photo) transfer
	cmdExtRecords    = 68 // records with 2-byte event and IO ids
)

// deviceCommands are the commands a device sends and Decode knows.
var deviceCommands = map[byte]bool{
	cmdRecords: true, cmdConfiguration: true, cmdVersion: true, cmdFirmware: true,
	cmdSMSAnswer: true, cmdDTCs: true, cmdIdentify: true, cmdHeartbeat: true,
	cmdSetIO: true, cmdFiles: true, cmdExtRecords: true,
}

// The answers to records and DTCs: content 01 ("received") under answer
// type 100 for records of either kind and 100+9 for DTCs, as Ruptela
// documents them.
var (
	recordsAck = serverFrame(100, []byte{1})
	dtcsAck    = response(cmdDTCs, []byte{1})
)

// noLocation is the coordinate a record carries when the device has no fix.
const noLocation = -1 << 31

// filePart is the sub-type of a file message carrying one part of a file.
const filePart = 2

var (
	errShort     = errors.New("ruptela: frame shorter than its header")
	errTruncated = errors.New("ruptela: truncated data")
)

// Decode implements protocols.Stream for frames cut by Split. The length
// field is not trusted: the data runs from the command to the CRC at the
// end of the frame. Records and DTCs are acknowledged after storage;
// identification and heartbeat are answered at once; answers to commands
// become CommandResult.
func (*Protocol) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) < minLength+overhead {
		return protocols.Result{}, errShort
	}
	end := len(frame) - 2
	res := protocols.Result{
		UniqueID:      fmt.Sprintf("%015d", binary.BigEndian.Uint64(frame[2:10])),
		ChecksumError: !crcEndsAt(frame, len(frame)),
	}
	cmd := frame[10]
	r := &reader{buf: frame[11:end]}
	switch cmd {
	case cmdRecords, cmdExtRecords:
		res.Positions = readRecords(r, cmd == cmdExtRecords)
		res.Ack = recordsAck
	case cmdDTCs:
		res.Positions = readDTCs(r)
		res.Ack = dtcsAck
	case cmdIdentify, cmdHeartbeat:
		res.Reply = response(int(cmd), []byte{1})
		return res, nil
	case cmdFiles:
		return readFile(r, res)
	case cmdConfiguration, cmdVersion, cmdFirmware, cmdSMSAnswer:
		res.CommandResult = strings.TrimSpace(string(r.buf))
		return res, nil
	case cmdSetIO:
		res.CommandResult = strconv.Itoa(r.u8())
	default:
		res.Unsupported = fmt.Sprintf("command %d not decoded", cmd)
		return res, nil
	}
	if r.failed {
		return protocols.Result{}, errTruncated
	}
	return res, nil
}

// readRecords reads `records left (1) | count (1)` and the records. In
// extended records a record may be one of several parts of a position (the
// record extension byte: part count in the high nibble, part number in the
// low): the parts after the first add to the position before them.
func readRecords(r *reader, extended bool) []*model.Position {
	r.u8() // records left in the device's memory
	count := r.u8()
	positions := make([]*model.Position, 0, count)
	for range count {
		t := time.Unix(int64(r.u32()), 0).UTC()
		r.u8() // time extension (sub-second order)
		var p *model.Position
		if extended {
			ext := r.u8()
			parts, part := ext>>4, ext&0x0F
			if part > 0 && part <= parts && len(positions) > 0 {
				p = positions[len(positions)-1]
				positions = positions[:len(positions)-1]
			}
		}
		if p == nil {
			p = &model.Position{Protocol: Name, Attributes: make(model.Attributes, 16)}
		}
		r.u8() // priority
		readLocation(r, p, t)
		if extended {
			p.Attributes["event"] = r.u16()
		} else {
			p.Attributes["event"] = r.u8()
		}
		readIO(r, p, extended)
		if r.failed {
			break
		}
		finishIO(p)
		positions = append(positions, p)
	}
	return positions
}

// readLocation reads longitude and latitude (1e-7 degrees, signed),
// altitude (0.1 m), angle (0.01 degrees), satellites, speed (km/h) and
// HDOP (0.1). Both coordinates at their minimum mean no fix: the position
// is outdated and the rest of the block is skipped; so is a corrupt one
// off the globe.
func readLocation(r *reader, p *model.Position, t time.Time) {
	lon, lat := int32(r.u32()), int32(r.u32())
	p.DeviceTime = t
	if lon == noLocation || lat == noLocation || !onGlobe(lat, lon) {
		r.take(8)
		p.Outdated, p.Valid, p.FixTime = true, false, time.Time{}
		return
	}
	p.FixTime, p.Valid, p.Outdated = t, true, false
	p.Longitude, p.Latitude = float64(lon)/1e7, float64(lat)/1e7
	p.Altitude = float64(r.u16()) / 10
	p.Course = float64(r.u16()) / 100
	p.Attributes["sat"] = r.u8()
	p.Speed = float64(r.u16()) * kphToKnots
	p.Attributes["hdop"] = float64(r.u8()) / 10
}

// onGlobe reports whether coordinates in 1e-7 degrees are on the globe.
func onGlobe(lat, lon int32) bool {
	return lat >= -90e7 && lat <= 90e7 && lon >= -180e7 && lon <= 180e7
}

// readDTCs reads `count (1)` and per code `reserved (1) | time (4) |
// longitude (4) | latitude (4) | archive flag (1, 2 = from memory) | code
// (5 ASCII)`: one position per code.
func readDTCs(r *reader) []*model.Position {
	count := r.u8()
	positions := make([]*model.Position, 0, count)
	for range count {
		r.u8()
		t := time.Unix(int64(r.u32()), 0).UTC()
		p := &model.Position{Protocol: Name, Attributes: model.Attributes{}, DeviceTime: t}
		if lon, lat := int32(r.u32()), int32(r.u32()); onGlobe(lat, lon) {
			p.FixTime, p.Valid = t, true
			p.Longitude, p.Latitude = float64(lon)/1e7, float64(lat)/1e7
		} else {
			p.Outdated = true
		}
		if r.u8() == 2 {
			p.Attributes["archive"] = true
		}
		p.Attributes["dtcs"] = string(r.take(5))
		if r.failed {
			break
		}
		positions = append(positions, p)
	}
	return positions
}

// readFile reads a file message: `sub-type (1) | source (1)`, and for a
// file part `name (8) | part count (2) | part number (2) | data`. The server
// pulls a file part by part, asking for the next one in the answer to the
// last. fleetd has no store for device media: it pulls the parts so the
// device finishes the transfer it was asked for, and leaves the last part
// unanswered in the raw-frame inbox.
func readFile(r *reader, res protocols.Result) (protocols.Result, error) {
	sub, source := r.u8(), r.u8()
	if sub != filePart {
		if r.failed {
			return protocols.Result{}, errTruncated
		}
		res.Unsupported = fmt.Sprintf("file message sub-type %d not decoded", sub)
		return res, nil
	}
	name := r.take(8)
	total, part := r.u16(), r.u16()
	if r.failed {
		return protocols.Result{}, errTruncated
	}
	if part+1 < total {
		next := append([]byte{byte(sub), byte(source)}, name...)
		res.Reply = response(cmdFiles, binary.BigEndian.AppendUint16(next, uint16(part+1)))
		return res, nil
	}
	res.Unsupported = fmt.Sprintf("file %q (%d parts) not kept: fleetd stores no device media", name, total)
	return res, nil
}

// response frames the server message for a command: its type is
// 100+command.
func response(cmd int, content []byte) []byte { return serverFrame(byte(100+cmd), content) }

// serverFrame frames a server message: `length (2) | type (1) | content |
// CRC-16/KERMIT (2)` over the type and content.
func serverFrame(typ byte, content []byte) []byte {
	out := make([]byte, 0, 5+len(content))
	out = binary.BigEndian.AppendUint16(out, uint16(1+len(content)))
	out = append(out, typ)
	out = append(out, content...)
	return binary.BigEndian.AppendUint16(out, crcKermit(out[2:]))
}

// reader walks a big-endian buffer; a read past the end sets failed and
// returns zeros, so callers check once.
type reader struct {
	buf    []byte
	failed bool
}

func (r *reader) take(n int) []byte {
	if r.failed || n > len(r.buf) {
		r.failed = true
		return nil
	}
	out := r.buf[:n:n]
	r.buf = r.buf[n:]
	return out
}

// value reads an unsigned big-endian integer of 1 to 8 bytes.
func (r *reader) value(width int) uint64 {
	var v uint64
	for _, b := range r.take(width) {
		v = v<<8 | uint64(b)
	}
	return v
}

func (r *reader) u8() int  { return int(r.value(1)) }
func (r *reader) u16() int { return int(r.value(2)) }

func (r *reader) u32() uint32 { return uint32(r.value(4)) }
