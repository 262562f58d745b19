package t55

import (
	"bytes"
	"errors"
	"strings"

	"github.com/fleetd/fleetd/protocols"
)

// maxLine bounds a line; NMEA sentences are at most 82 bytes, vendor
// extensions and id prefixes a few hundred.
const maxLine = 1024

// ErrLineTooLong ends the connection when no line end comes within maxLine
// bytes.
var ErrLineTooLong = errors.New("t55: no line end within 1024 bytes")

// Split implements protocols.Stream: one line per frame, with its "\r\n"
// or "\n" (Decode trims it); empty lines are skipped. The last line is
// taken at the end of the stream even without a line end.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skip := 0
	for skip < len(data) && (data[skip] == '\r' || data[skip] == '\n') {
		skip++
	}
	rest := data[skip:]
	end := bytes.IndexByte(rest[:min(len(rest), maxLine+2)], '\n')
	switch {
	case end < 0 && atEOF && len(rest) > 0:
		end = len(rest) - 1
	case end < 0 && (len(rest) <= maxLine || len(rest) == maxLine+1 && rest[maxLine] == '\r'):
		return skip, nil, nil // more to come
	case end < 0:
		return 0, nil, ErrLineTooLong
	}
	line := rest[: end+1 : end+1]
	if len(bytes.TrimRight(line, "\r\n")) > maxLine {
		return 0, nil, ErrLineTooLong
	}
	return skip + end + 1, line, nil
}

// Recognize implements protocols.Recognizer. '$' sentences are shared with
// other NMEA-style protocols, so a line is Mine only when it is whole (its
// line end came), decodes as a sentence of this protocol and is
// distinctive: it carries an NMEA checksum that matches, or it is one of
// the identification forms without one, exactly ("IMEI <15 digits>",
// "$IMEI=<15 digits>", "$CONNECT,<15 digits>,...", "QZE,<15 digits>,...").
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	end := bytes.IndexByte(head, '\n')
	line := bytes.TrimSuffix(head, []byte("\r")) // a line whose "\n" is still on its way
	if end >= 0 {
		line = bytes.TrimSuffix(head[:end], []byte("\r"))
	}
	if len(line) == 0 && end < 0 {
		return protocols.NeedMore
	}
	if len(line) == 0 || len(line) > maxLine || !printable(line) || !plausible(string(line)) {
		return protocols.NotMine
	}
	if end < 0 {
		if len(head) > maxLine {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	if !distinctive(string(line)) {
		return protocols.NotMine
	}
	res, err := p.Decode(&protocols.Conn{}, line)
	if err != nil || res.Unsupported != "" || res.ChecksumError {
		return protocols.NotMine
	}
	return protocols.Mine
}

// distinctive tells a line no other protocol sends: a sentence with a
// checksum, or an identification in its exact form.
func distinctive(line string) bool {
	_, s := splitID(line)
	if valid, _ := checksum(s); valid {
		return true
	}
	for _, prefix := range []string{"IMEI ", "$IMEI="} {
		if id, ok := strings.CutPrefix(line, prefix); ok && len(id) == 15 && isDigits(id) {
			return true
		}
	}
	for _, prefix := range []string{"$CONNECT,", "QZE,"} {
		if rest, ok := strings.CutPrefix(line, prefix); ok && len(rest) > 16 && isDigits(rest[:15]) && rest[15] == ',' {
			return true
		}
	}
	return false
}

// plausible tells whether line may begin a line of this protocol: a
// sentence, an id before one, or an identification line.
func plausible(line string) bool {
	for _, prefix := range []string{"IMEI ", "QZE,"} {
		if strings.HasPrefix(line, prefix) || strings.HasPrefix(prefix, line) {
			return true
		}
	}
	head, _, _ := strings.Cut(line, "$")
	for i := 0; i < len(head); i++ {
		if !isAlnum(head[i]) && head[i] != ',' && head[i] != '/' {
			return false
		}
	}
	return true
}

// printable reports whether b is plain ASCII text.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}
