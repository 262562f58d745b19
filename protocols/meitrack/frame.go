package meitrack

import (
	"bytes"
	"fmt"

	"github.com/fleetd/fleetd/protocols"
)

const (
	// MaxFrame bounds a frame: the length field has at most five digits.
	MaxFrame = 100_000 + 16
	// maxText bounds a text frame cut at its "\r\n" rather than by its
	// length field; real reports are a few hundred bytes.
	maxText = 2048
	// IMEI length bounds; old units send 14 digits.
	minIMEI, maxIMEI = 8, 20
	maxLengthDigits  = 5
)

// header is what the start of a frame says:
// "$$" flag length "," imei "," type ("," | "*").
type header struct {
	flag   byte
	length int // counts from the first comma through the final "\r\n"
	comma  int // index of the first comma
	imei   string
	typ    string
	data   int // index of the byte after the type
}

// parse results of parseHeader.
const (
	hdrOK = iota
	hdrMore
	hdrBad
)

// parseHeader reads the header at the start of b, which begins with "$$".
func parseHeader(b []byte) (header, int) {
	var h header
	if len(b) < 3 {
		return h, hdrMore
	}
	if h.flag = b[2]; h.flag <= ' ' || h.flag > '~' || h.flag == ',' {
		return h, hdrBad
	}
	i := 3
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i-3 >= maxLengthDigits {
			return h, hdrBad
		}
		h.length = h.length*10 + int(b[i]-'0')
	}
	switch {
	case i == len(b):
		return h, hdrMore
	case i == 3 || b[i] != ',':
		return h, hdrBad
	}
	h.comma = i
	start := i + 1
	for i = start; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i-start >= maxIMEI {
			return h, hdrBad
		}
	}
	switch {
	case i == len(b):
		return h, hdrMore
	case i-start < minIMEI || b[i] != ',':
		return h, hdrBad
	}
	h.imei = string(b[start:i])
	start = i + 1
	for i = start; i < start+3; i++ {
		if i == len(b) {
			return h, hdrMore
		}
		if !isAlnum(b[i]) {
			return h, hdrBad
		}
	}
	if i == len(b) {
		return h, hdrMore
	}
	if b[i] != ',' && b[i] != '*' {
		return h, hdrBad
	}
	h.typ, h.data = string(b[start:i]), i
	return h, hdrOK
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// isBinary reports whether frames of type typ carry binary data, so that
// only their length field tells where they end.
func isBinary(typ string) bool {
	switch typ {
	case "CCC", "CCE", "D00":
		return true
	}
	return false
}

// Split implements protocols.Stream. Binary frames (CCC, CCE, D00) end
// where their length field says. Text frames end at their first "\r\n":
// some firmware counts their length one off, so a text frame is cut by
// its terminator, not its length.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	return protocols.SplitMarked(data, atEOF, "$", frameAt)
}

// frameAt cuts the frame at the start of data (which starts with '$').
func frameAt(data []byte, atEOF bool) (int, []byte, error) {
	if len(data) > 1 && data[1] != '$' {
		return 1, nil, nil
	}
	h, st := parseHeader(data)
	switch {
	case st == hdrBad:
		return 1, nil, nil
	case st == hdrMore && atEOF:
		return len(data), nil, nil
	case st == hdrMore:
		return 0, nil, nil
	}
	if isBinary(h.typ) {
		n := h.comma + h.length
		if n <= h.data || n > MaxFrame {
			return 1, nil, nil
		}
		if len(data) < n {
			if atEOF {
				return len(data), nil, nil
			}
			return 0, nil, nil
		}
		return n, data[:n:n], nil
	}
	end := bytes.Index(data[:min(len(data), maxText)], []byte("\r\n"))
	if next := nextFrame(data[:min(len(data), maxText)]); next > 0 && (end < 0 || next < end) {
		return next, nil, nil // cut short by the next frame: dropped
	}
	switch {
	case end >= 0:
		return end + 2, data[: end+2 : end+2], nil
	case len(data) >= maxText:
		return 1, nil, nil
	case atEOF:
		// A frame without its "\r\n" (a capture, or a datagram) is
		// taken whole when it ends with a checksum.
		if n := len(data); n >= 4 && data[n-3] == '*' {
			return n, data[:n:n], nil
		}
		return len(data), nil, nil
	}
	return 0, nil, nil
}

// nextFrame is the index of a second frame header in data (which starts
// with one), or -1.
func nextFrame(data []byte) int {
	for i := 2; ; {
		j := bytes.Index(data[i:], []byte("$$"))
		if j < 0 {
			return -1
		}
		i += j
		if _, st := parseHeader(data[i:]); st == hdrOK {
			return i
		}
		i++
	}
}

// Recognize implements protocols.Recognizer. A Meitrack frame starts with
// "$$", a printable flag, a decimal length, a comma, the IMEI digits, a
// comma and a three-character type (Meiligao's "$$" frames have a binary
// length and a BCD id there, where no comma can be); the head is Mine once
// it holds a whole frame that decodes.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, protocols.StartsWith("$$"))
}

// checksum is Meitrack's: the byte sum of b, as two uppercase hex digits.
func checksum(b []byte) string {
	var sum byte
	for _, c := range b {
		sum += c
	}
	return fmt.Sprintf("%02X", sum)
}

// frameBody returns the frame without its "*sum\r\n" tail and whether
// the checksum is there and matches.
func frameBody(frame []byte) (body []byte, sumOK bool) {
	f := bytes.TrimSuffix(frame, []byte("\r\n"))
	if len(f) < 3 || f[len(f)-3] != '*' {
		return f, false
	}
	return f[:len(f)-3], checksum(f[:len(f)-2]) == string(bytes.ToUpper(f[len(f)-2:]))
}

// message formats a frame the server sends: "@@<flag><length>,<imei>,
// <content>*<sum>\r\n", the length counting from the first comma through
// the "\r\n".
func message(flag byte, imei, content string) []byte {
	length := 1 + len(imei) + 1 + len(content) + 5
	s := fmt.Sprintf("@@%c%02d,%s,%s*", flag, length, imei, content)
	return []byte(s + checksum([]byte(s)) + "\r\n")
}
