package trv

import (
	"bytes"
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

// MaxFrameSize bounds a message: the longest in the makers' documents (a
// contact list of ten UTF-16 hex names and numbers, or many cells and
// Wi-Fi access points) stays well under it.
const MaxFrameSize = 4096

// ErrFrameTooLong ends the connection when no '#' comes within
// MaxFrameSize bytes of a message start.
var ErrFrameTooLong = errors.New("trv: no '#' within 4096 bytes")

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Split implements protocols.Stream: a message runs from its maker prefix
// to the first '#'. Bytes that cannot start a header (line ends some
// firmwares add, garbage) are skipped.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	return protocols.SplitMarked(data, atEOF, upper, frameAt)
}

func frameAt(data []byte, atEOF bool) (int, []byte, error) {
	switch _, _, st := parseHeader(data); {
	case st == headerBad:
		return 1, nil, nil
	case st == headerMore && atEOF:
		return len(data), nil, nil
	case st == headerMore:
		return 0, nil, nil
	}
	end := bytes.IndexByte(data[:min(len(data), MaxFrameSize)], '#')
	switch {
	case end >= 0:
		return end + 1, data[: end+1 : end+1], nil
	case len(data) >= MaxFrameSize:
		return 0, nil, ErrFrameTooLong
	case atEOF:
		return len(data), nil, nil
	}
	return 0, nil, nil
}

type headerState int

const (
	headerOK headerState = iota
	headerMore
	headerBad
)

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func isUpperOrDigit(c byte) bool { return isUpper(c) || '0' <= c && c <= '9' }

// parseHeader reads "<maker><type>" at the start of b: maker "TRV" or two
// capital letters, type a capital, 'P' and two capitals or digits ("AP01",
// "CP01", "APHT").
func parseHeader(b []byte) (maker, typ string, st headerState) {
	n := 2
	if bytes.HasPrefix(b, []byte("TRV")) {
		n = 3
	}
	for i := range n + 4 {
		if i >= len(b) {
			return "", "", headerMore
		}
		ok := isUpper(b[i])
		switch {
		case i == n+1:
			ok = b[i] == 'P'
		case i >= n+2:
			ok = isUpperOrDigit(b[i])
		}
		if !ok {
			return "", "", headerBad
		}
	}
	return string(b[:n]), string(b[n : n+4]), headerOK
}

// Recognize implements protocols.Recognizer: Mine for a whole message
// ("...#") whose header is well formed and which decodes as a known
// message type, so a frame of another text protocol that happens to begin
// with capitals is never taken.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	_, _, st := parseHeader(head)
	switch st {
	case headerBad:
		return protocols.NotMine
	case headerMore:
		return protocols.NeedMore
	}
	// Split looks for the end within MaxFrameSize bytes: so must this.
	end := bytes.IndexByte(head[:min(len(head), MaxFrameSize)], '#')
	if end < 0 {
		if len(head) >= MaxFrameSize || !printable(head) {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	res, err := p.Decode(&protocols.Conn{}, head[:end+1])
	if err != nil || res.Unsupported != "" {
		return protocols.NotMine
	}
	return protocols.Mine
}

// printable reports whether b is text without control characters, as
// every message is (Wi-Fi names may be UTF-8).
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}
