package jt808

import (
	"fmt"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Message ids, terminal to platform.
const (
	msgTerminalResponse = 0x0001
	msgHeartbeat        = 0x0002
	msgLogout           = 0x0003
	msgRegister         = 0x0100
	msgAuth             = 0x0102
	msgAttributes       = 0x0107
	msgTimeRequest      = 0x0109
	msgLocation         = 0x0200
	msgBatchShort       = 0x0210
	msgHeartbeat2       = 0x0506
	msgCommandResponse  = 0x0701
	msgDriverIdentity   = 0x0702
	msgBatch            = 0x0704
	msgTransparent      = 0x0900
	msgTimezoneSync     = 0x1007
	msgTextResponse     = 0x1300
	msgAcceleration     = 0x2070
	msgLocation2        = 0x5501
	msgLocationBlind    = 0x5502
	msgTextReport       = 0x6006
	msgPhoto            = 0x8888
)

// Message ids, platform to terminal.
const (
	msgGeneralResponse  = 0x8001
	msgGeneralResponse2 = 0x4401
	msgRegisterResponse = 0x8100
	msgTimeResponse     = 0x8109
	msgParameters       = 0x8103
	msgTerminalControl  = 0x8105
	msgSendText         = 0x8300
	msgTransparentDown  = 0x8900
	msgVideoRequest     = 0x9101
	msgVideoControl     = 0x9102
	// msgParameterSetting is the parameter message Traccar sends for its
	// reboot, interval and arm commands (a vendor id, not 0x8103).
	msgParameterSetting = 0x0310
)

// state is what a connection's frames leave for the command encoder: the
// terminal id and header version to address the device with.
type state struct {
	terminal []byte
	version  int
}

// Decode implements protocols.Stream.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) > 0 && frame[0] == '(' {
		return p.decodeText(c, string(frame))
	}
	u, err := unescape(frame)
	if err != nil {
		return protocols.Result{}, err
	}
	h, err := parse(u)
	if err != nil {
		return protocols.Result{}, err
	}
	id := terminalID(h.terminal)
	res := protocols.Result{UniqueID: uniqueID(id), ChecksumError: !h.checksum}
	c.State = &state{terminal: append([]byte(nil), h.terminal...), version: h.version}
	m := &msg{h: h, model: c.Model}
	switch h.typ {
	case msgRegister:
		// The authentication code the terminal is to send back: its own
		// id, as Traccar answers.
		body := append([]byte{byte(h.serial >> 8), byte(h.serial), 0}, id...)
		res.Reply = message(msgRegisterResponse, h.version, h.terminal, false, body)
		return res, nil
	case msgAuth, msgLogout, msgHeartbeat2, msgTimezoneSync, msgPhoto:
		res.Reply = m.generalResponse()
		return res, nil
	case msgHeartbeat:
		if len(h.body) < 3 {
			res.Reply = m.generalResponse()
			return res, nil
		}
		pos := m.outdated()
		pos.Attributes["batteryLevel"] = int(h.body[0])
		pos.Attributes["rssi"] = int(h.body[1])
		pos.Attributes["status"] = int(h.body[2])
		return m.stored(res, pos)
	case msgTerminalResponse:
		return res, nil // the terminal's answer to a command: nothing to store
	case msgTimeRequest:
		now := p.now.Now()
		body := []byte{byte(now.Year() >> 8), byte(now.Year()), byte(now.Month()), byte(now.Day()),
			byte(now.Hour()), byte(now.Minute()), byte(now.Second()), 0}
		res.Reply = message(msgTimeResponse, h.version, h.terminal, false, body)
		return res, nil
	}
	decode := decoders[h.typ]
	if decode == nil {
		res.Unsupported = fmt.Sprintf("message type 0x%04X not decoded", h.typ)
		return res, nil
	}
	return decode(m, res)
}

// decoders handle the message types that carry data to store.
var decoders = map[int]func(*msg, protocols.Result) (protocols.Result, error){
	msgLocation:        decodeLocationMessage,
	msgBatch:           decodeBatch,
	msgBatchShort:      decodeBatch,
	msgLocation2:       decodeLocation2,
	msgLocationBlind:   decodeLocation2,
	msgAttributes:      decodeAttributes,
	msgTextReport:      decodeTextReport,
	msgTextResponse:    decodeTextResponse,
	msgCommandResponse: decodeCommandResponse,
	msgDriverIdentity:  decodeDriverIdentity,
	msgAcceleration:    decodeAcceleration,
	msgTransparent:     decodeTransparent,
}

// msg is one frame being decoded.
type msg struct {
	h     *header
	model string
}

// generalResponse is the platform general response 0x8001 to the frame:
// its serial, its message id, result 0 (success).
func (m *msg) generalResponse() []byte {
	h := m.h
	body := []byte{byte(h.serial >> 8), byte(h.serial), byte(h.typ >> 8), byte(h.typ), 0}
	return message(msgGeneralResponse, h.version, h.terminal, false, body)
}

// stored answers a frame carrying data with 0x8001 once it is durable:
// the standard's rule for every terminal message without an answer of
// its own.
func (m *msg) stored(res protocols.Result, positions ...*model.Position) (protocols.Result, error) {
	res.Positions = positions
	res.Ack = m.generalResponse()
	return res, nil
}

// outdated is a position without a fix of its own. When the frame has a
// time, it is both device and fix time: the ingest replaces the fix time
// with the last fix's, if there is one.
func (m *msg) outdated() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}, Outdated: true}
}

// decodeText handles the "(...)" lines some terminals send besides binary
// frames: the BASE,2 time request, echoed with the UTC clock in place of
// TIME, and command results.
func (p *Protocol) decodeText(c *protocols.Conn, line string) (protocols.Result, error) {
	var res protocols.Result
	if id, _, ok := strings.Cut(line[1:], ","); ok && len(id) <= 20 && strings.Trim(id, "0123456789") == "" {
		res.UniqueID = uniqueID(id) // the terminal id of the binary frames
	}
	if strings.Contains(line, "BASE,2") {
		stamp := p.now.Now().Format("20060102150405")
		res.Reply = []byte(strings.Replace(line, "TIME", stamp, 1))
		return res, nil
	}
	if res.UniqueID == "" && c.UniqueID == "" {
		return res, fmt.Errorf("jt808: text %q names no terminal", line)
	}
	res.CommandResult = line
	return res, nil
}

// bcdTime reads a 6-byte BCD yyMMddHHmmss time of the terminal's zone.
func bcdTime(b []byte) (time.Time, error) { return bcdClock(b, deviceZone) }

// bcdClock reads a 6-byte BCD yyMMddHHmmss time of zone, in UTC.
func bcdClock(b []byte, zone *time.Location) (time.Time, error) {
	if len(b) < 6 {
		return time.Time{}, errShort
	}
	var v [6]int
	for i := range v {
		hi, lo := int(b[i]>>4), int(b[i]&0x0F)
		if hi > 9 || lo > 9 {
			return time.Time{}, fmt.Errorf("jt808: time %X is not BCD", b[:6])
		}
		v[i] = hi*10 + lo
	}
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 59 {
		return time.Time{}, fmt.Errorf("jt808: impossible time %X", b[:6])
	}
	return time.Date(2000+v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, zone).UTC(), nil
}
