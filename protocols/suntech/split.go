package suntech

import (
	"encoding/binary"
	"errors"
)

// MaxText bounds a text report: the longest real ones (a full settings
// answer "CMD;Res;...") are a few hundred bytes.
const MaxText = 4096

// maxBinary bounds a binary report's length field.
const maxBinary = 1024

// ErrFrameTooLong is returned by Split when a text report has no end
// within MaxText bytes: the stream is not Suntech.
var ErrFrameTooLong = errors.New("suntech: frame too long")

// startsText reports whether c may begin a text report: an upper-case
// letter (every header) or '-' ("-Error").
func startsText(c byte) bool { return c >= 'A' && c <= 'Z' || c == '-' }

// isBinary reports whether data starts a universal binary report: 0x8n
// type then the length's high byte, 0.
func isBinary(data []byte) bool { return len(data) > 1 && data[0]&0xF0 == 0x80 && data[1] == 0 }

// Split returns whole reports: zip and binary ones by their length, text
// ones up to the '\r' that ends them (a "\r\n" inside is serial-port data
// of a UEX report, not the end). A text report is cut at a '\r' that ends
// the bytes read so far, as devices send one report and wait. Bytes that
// start no report are skipped.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skip := 0
	for skip < len(data) {
		d := data[skip:]
		switch {
		case d[0] == zipHeader || d[0]&0xF0 == 0x80:
			if len(d) < 3 {
				if atEOF {
					return len(data), nil, nil
				}
				return skip, nil, nil
			}
			n := 3 + int(binary.BigEndian.Uint16(d[1:3]))
			if d[0] == zipHeader {
				n++ // the footer is outside the length
			}
			if (d[0] != zipHeader && !isBinary(d)) || n > maxBinary || n < 12 {
				skip++
				continue
			}
			if len(d) < n {
				if atEOF {
					return len(data), nil, nil
				}
				return skip, nil, nil
			}
			return skip + n, d[:n:n], nil
		case startsText(d[0]):
			for i := 1; i < len(d); i++ {
				if i >= MaxText {
					return 0, nil, ErrFrameTooLong
				}
				if d[i] == '\r' && (i+1 == len(d) || d[i+1] != '\n') {
					return skip + i + 1, d[: i+1 : i+1], nil
				}
			}
			if len(d) > MaxText {
				return 0, nil, ErrFrameTooLong
			}
			if atEOF {
				return len(data), d, nil
			}
			return skip, nil, nil
		default:
			skip++
		}
	}
	return len(data), nil, nil
}
