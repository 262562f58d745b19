package protocols

import "bytes"

// SplitMarked is the body of a Split for protocols whose frames start with
// a marker byte (one of markers). It skips garbage to the next marker and
// cuts the frame there with cut, which returns (length, frame), (n, nil) to
// drop n bytes that are not a frame, or (0, nil) when it needs more bytes.
// Skipped bytes are consumed together with the frame that follows them:
// bufio.Scanner stops at EOF on an advance without a token, which would
// lose the frames after it.
func SplitMarked(data []byte, atEOF bool, markers string, cut func(data []byte, atEOF bool) (int, []byte, error)) (int, []byte, error) {
	skip := 0
	for {
		i := bytes.IndexAny(data[skip:], markers)
		if i < 0 {
			return len(data), nil, nil
		}
		i += skip
		n, token, err := cut(data[i:], atEOF)
		switch {
		case err != nil:
			return 0, nil, err
		case token != nil:
			return i + n, token, nil
		case n == 0:
			return i, nil, nil // the frame at i needs more bytes
		}
		skip = i + n
	}
}
