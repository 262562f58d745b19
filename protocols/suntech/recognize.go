package suntech

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/fleetd/fleetd/protocols"
)

// universalTypes are the universal firmware's report headers.
var universalTypes = []string{"STT", "ALT", "UEX", "BLE", "RES", "ALV", "BSA", "EVT", "EMG", "HTE", "CRR", "DEX"}

// Recognize says Mine for a first report that Split cuts and Decode reads
// into data: a header of a Suntech family, a numeric device id and fields
// that decode (zip and binary reports: a length in range and fields that
// decode, with a real date).
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	if len(head) == 0 {
		return protocols.NeedMore
	}
	if head[0] == zipHeader || head[0]&0xF0 == 0x80 {
		if len(head) < 3 {
			return protocols.NeedMore
		}
		n := 3 + int(binary.BigEndian.Uint16(head[1:3]))
		if head[0] == zipHeader {
			n++
		}
		if (head[0] != zipHeader && !isBinary(head)) || n > maxBinary || n < 12 {
			return protocols.NotMine
		}
		if len(head) < n {
			return protocols.NeedMore
		}
		return p.decodes(head[:n])
	}
	semi := bytes.IndexByte(head, ';')
	hdr := head
	if semi >= 0 {
		hdr = head[:semi]
	}
	if !plausibleHeader(string(hdr), semi >= 0) {
		return protocols.NotMine
	}
	end := bytes.IndexByte(head, '\r')
	for end >= 0 && end+1 < len(head) && head[end+1] == '\n' {
		next := bytes.IndexByte(head[end+1:], '\r')
		if next < 0 {
			end = -1
			break
		}
		end += 1 + next
	}
	if end >= MaxText {
		return protocols.NotMine // Split refuses it as too long
	}
	if end < 0 {
		if len(head) > MaxText {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	got := p.decodes(head[:end+1])
	if got == protocols.NotMine && end == len(head)-1 {
		// A '\r' that ends the bytes so far may be followed by the '\n'
		// of a UEX report's serial data.
		return protocols.NeedMore
	}
	return got
}

func (p *Protocol) decodes(frame []byte) protocols.Recognition {
	res, err := p.Decode(&protocols.Conn{}, frame)
	if err != nil || res.Unsupported != "" || res.UniqueID == "" {
		return protocols.NotMine
	}
	return protocols.Mine
}

// plausibleHeader checks what is there of a header: a universal type, a
// legacy "ST300STT"-like one or "ST910"; complete when the ';' came.
func plausibleHeader(h string, complete bool) bool {
	if len(h) > 10 {
		return false
	}
	for _, t := range universalTypes {
		if h == t || (!complete && strings.HasPrefix(t, h)) {
			return true
		}
	}
	if complete {
		return legacyHeader(h) || h == "ST910"
	}
	for i := range len(h) {
		c := h[i]
		switch {
		case i == 0 && c != 'S', i == 1 && c != 'T' && c != 'A':
			return false
		case !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'):
			return false
		}
	}
	return true
}
