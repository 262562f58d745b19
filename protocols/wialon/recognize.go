package wialon

import (
	"bytes"

	"github.com/fleetd/fleetd/protocols"
)

// knownTypes are the packet types a device sends first or alone.
var knownTypes = [...]string{"L", "SD", "D", "B", "P", "M"}

// Recognize says Mine for a first line that is a whole Wialon packet of a
// known type that decodes: "#L#" alone is not enough, since '#' starts
// frames of other protocols too.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	end := bytes.IndexByte(head, '\n')
	line := head
	if end > MaxPacket {
		return protocols.NotMine // Split refuses it as too long
	}
	if end >= 0 {
		line = bytes.TrimRight(head[:end], "\r")
	}
	if !plausibleStart(line) {
		return protocols.NotMine
	}
	if end < 0 {
		if len(head) > MaxPacket {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	pk, err := parsePacket(line)
	if err != nil || !known(pk.typ) {
		return protocols.NotMine
	}
	res, err := p.Decode(&protocols.Conn{}, head[:end+1])
	if err != nil || res.Unsupported != "" {
		return protocols.NotMine
	}
	return protocols.Mine
}

func known(typ string) bool {
	for _, t := range knownTypes {
		if t == typ {
			return true
		}
	}
	return false
}

// plausibleStart checks what is there of "[2.0;][<imei>]#<TYPE>#".
func plausibleStart(b []byte) bool {
	hash := bytes.IndexByte(b, '#')
	if hash < 0 {
		return len(b) <= 64 && idChars(b)
	}
	if hash > 0 && !idChars(b[:hash]) {
		return false
	}
	rest := b[hash+1:]
	for _, t := range knownTypes {
		tt := t + "#"
		n := min(len(rest), len(tt))
		if string(rest[:n]) == tt[:n] {
			return true
		}
	}
	return false
}

// idChars accepts what may stand before the first '#': a version and a
// device id, letters, digits, '.', '-', '_' and one ';'.
func idChars(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '.' || c == '-' || c == '_' || c == ';') {
			return false
		}
	}
	return true
}
