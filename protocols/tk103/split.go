package tk103

import (
	"bytes"
	"fmt"
)

// maxFrame bounds a frame, as Traccar's TK103 frame decoder does.
const maxFrame = 1024

// ErrFrameTooLong ends the stream when no frame end comes within maxFrame bytes.
var ErrFrameTooLong = fmt.Errorf("tk103: no frame end within %d bytes", maxFrame)

// Split implements protocols.Stream. A frame runs from '(' to the first ')'
// outside a '$'-delimited free-text section (command answers quote device
// text that may hold parentheses). Bytes before '(' are dropped, and so is
// an unterminated frame when the stream ends.
func (p *Protocol) Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	start := bytes.IndexByte(data, '(')
	if start < 0 {
		return len(data), nil, nil
	}
	inText := false
	for i := start + 1; i < len(data) && i-start < maxFrame; i++ {
		switch data[i] {
		case '$':
			inText = !inText
		case ')':
			if !inText {
				// Garbage goes in the same call: bufio.Scanner stops at EOF
				// on the first call without a token.
				return i + 1, data[start : i+1], nil
			}
		}
	}
	switch {
	case len(data)-start >= maxFrame:
		return 0, nil, ErrFrameTooLong
	case atEOF:
		return len(data), nil, nil
	}
	return start, nil, nil
}
