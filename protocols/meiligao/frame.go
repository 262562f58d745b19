package meiligao

import (
	"bytes"
	"encoding/binary"

	"github.com/fleetd/fleetd/protocols"
)

const (
	// MaxFrame is the largest length the 16-bit length field can state:
	// within the listener's default frame bound.
	MaxFrame = 0xFFFF
	// header is "$$", the length, the 7-byte id and the command.
	header = 2 + 2 + 7 + 2
	// minFrame adds the CRC and "\r\n" to the header.
	minFrame = header + 4
	// maxText bounds a frame cut at its "\r\n" because its length field is
	// zero or wrong (old firmware); position frames are a few hundred bytes.
	maxText = 4096
)

// Commands from the device (and the server's answers).
const (
	cmdHeartbeat      = 0x0001
	cmdServer         = 0x0002
	cmdLogin          = 0x5000
	cmdLoginReply     = 0x4000
	cmdPosition       = 0x9955
	cmdPositionLogged = 0x9016
	cmdAlarm          = 0x9999
	cmdRFID           = 0x9966
	cmdRetransmission = 0x6688
	cmdOBD            = 0x9901
	cmdOBDAverage     = 0x9902
	cmdDTC            = 0x9903
	cmdPhotoStart     = 0x0800
	cmdPhotoStartOK   = 0x8801
	cmdPhotoData      = 0x9988
	cmdPositionImage  = 0x9977
	cmdPhotoEnd       = 0x0F80
)

// binaryData reports whether a command's data is binary, so a "\r\n" in
// it does not end the frame: only the length field does.
func binaryData(cmd int) bool {
	return cmd == cmdPhotoData || cmd == cmdRFID || cmd == cmdPositionImage
}

// validID reports whether b holds (the start of) a BCD id: digits, then F
// nibbles to pad it to 7 bytes, and at least one digit.
func validID(b []byte) bool {
	padded := false
	for _, c := range b {
		for _, n := range [2]byte{c >> 4, c & 0x0F} {
			switch {
			case n == 0x0F:
				padded = true
			case n > 9 || padded:
				return false
			}
		}
	}
	return len(b) == 0 || b[0]>>4 != 0x0F
}

// deviceID reads the BCD id up to its padding.
func deviceID(b []byte) string {
	out := make([]byte, 0, 14)
	for _, c := range b {
		for _, n := range [2]byte{c >> 4, c & 0x0F} {
			if n > 9 {
				return string(out)
			}
			out = append(out, '0'+n)
		}
	}
	return string(out)
}

// Split implements protocols.Stream. A frame starts with "$$" (or "@@",
// which some OBD firmware sends) and a BCD id. It ends where its length
// field says when "\r\n" is there; old firmware sends a zero length and
// some count one byte too many, so a frame with text data otherwise ends
// at its first "\r\n".
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	return protocols.SplitMarked(data, atEOF, "$@", frameAt)
}

// frameAt cuts the frame at the start of data.
func frameAt(data []byte, atEOF bool) (int, []byte, error) {
	more := func() (int, []byte, error) {
		if atEOF {
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	if len(data) > 1 && data[1] != data[0] {
		return 1, nil, nil
	}
	if len(data) < header {
		if len(data) > 4 && !validID(data[4:min(len(data), 11)]) {
			return 1, nil, nil
		}
		return more()
	}
	if !validID(data[4:11]) {
		return 1, nil, nil
	}
	length := int(binary.BigEndian.Uint16(data[2:4]))
	if length < minFrame {
		length = 0 // not a length: cut at "\r\n"
	}
	cmd := int(binary.BigEndian.Uint16(data[11:13]))
	if length > 0 && len(data) >= length && bytes.HasSuffix(data[:length], []byte("\r\n")) {
		return length, data[:length:length], nil
	}
	if length > 0 && binaryData(cmd) {
		if len(data) < length {
			return more()
		}
		return length, data[:length:length], nil
	}
	end := bytes.Index(data[header:min(len(data), maxText)], []byte("\r\n"))
	switch {
	case end < 0 && len(data) >= maxText:
		return 1, nil, nil
	case end < 0:
		return more()
	}
	end += header + 2
	// A CRC that happens to read "\r\n" ends the data two bytes early:
	// wait for the frame the length field announces.
	if end == length-2 && len(data) < length && !atEOF {
		return 0, nil, nil
	}
	return end, data[:end:end], nil
}

// Recognize implements protocols.Recognizer: "$$", a length, a BCD id and
// a whole frame through its "\r\n" that decodes (Meitrack's "$$" frames
// have ASCII digits and a comma where the id is).
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, protocols.StartsWith("$$"))
}

// crc16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF).
func crc16(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// message builds a frame the server sends: "@@", length, id, command,
// data, CRC, "\r\n".
func message(id []byte, cmd int, data []byte) []byte {
	n := header + len(data) + 4
	b := make([]byte, 0, n)
	b = append(b, '@', '@', byte(n>>8), byte(n))
	b = append(b, id...)
	b = append(b, byte(cmd>>8), byte(cmd))
	b = append(b, data...)
	b = binary.BigEndian.AppendUint16(b, crc16(b))
	return append(b, '\r', '\n')
}
