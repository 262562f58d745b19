package protocols

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSplitHTTP(t *testing.T) {
	get := "GET /?id=1&lat=1&lon=2 HTTP/1.1\r\nHost: x\r\n\r\n"
	post := "POST / HTTP/1.1\r\nContent-Type: application/json\r\ncontent-length: 7\r\n\r\n{\"a\":1}"
	chunked := "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\n{\"a\r\n4\r\n\":1}\r\n0\r\nTrailer: x\r\n\r\n"
	tests := []struct {
		name   string
		stream string
		want   []string
		err    error
	}{
		{"pipelined, empty lines between", "\r\n" + get + "\r\n" + post + get, []string{get, post, get}, nil},
		{"chunked body with extension and trailer", chunked + get, []string{chunked, get}, nil},
		{"chunked body without trailer", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
			[]string{"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"}, nil},
		{"bare line feeds", "GET / HTTP/1.0\nHost: x\n\n", []string{"GET / HTTP/1.0\nHost: x\n\n"}, nil},
		{"an unfinished request at the end is dropped", get + "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", []string{get}, nil},
		{"head too long", get + "GET /" + strings.Repeat("a", maxHTTPHead) + " HTTP/1.1\r\n", []string{get}, errHTTPHead},
		// Refused whether or not its end came in the read that passed the limit.
		{"head too long, with its end", get + "GET /" + strings.Repeat("a", maxHTTPHead) + " HTTP/1.1\r\n\r\n" + get, []string{get}, errHTTPHead},
		{"bad Content-Length", "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", nil, errHTTPFraming},
		{"bad chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", nil, errHTTPFraming},
		{"chunk without its line end", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxyz\r\n0\r\n\r\n", nil, errHTTPFraming},
		// net/http reads the end of the trailer as "\r\n" only (found by FuzzSplitHTTP).
		{"trailer ended by a bare LF", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n", nil, errHTTPFraming},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.stream), iotest.OneByteReader(strings.NewReader(tt.stream))} {
				fr := NewFrameReader(r, splitHTTP, 64<<10)
				var got []string
				var err error
				for {
					var frame []byte
					if frame, err = fr.Next(); err != nil {
						break
					}
					got = append(got, string(bytes.Clone(frame)))
				}
				if err == io.EOF {
					err = nil
				}
				if !slices.Equal(got, tt.want) || !errors.Is(err, tt.err) {
					t.Errorf("frames %q, err %v; want %q, %v", got, err, tt.want, tt.err)
				}
			}
		})
	}
}

// FuzzSplitHTTP runs random bytes through splitHTTP as the frame reader
// does: it must always advance within its data or ask for more, and every
// request it cuts must be one net/http reads without needing bytes beyond
// the frame.
func FuzzSplitHTTP(f *testing.F) {
	for _, seed := range []string{
		"GET /?id=1 HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
		"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
		"\r\n\nGET / HTTP/1.0\n\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, atEOF := range []bool{false, true} {
			for rest := data; len(rest) > 0; {
				adv, frame, err := splitHTTP(rest, atEOF)
				if err != nil {
					break
				}
				if adv < 0 || adv > len(rest) || len(frame) > adv || frame != nil && adv == 0 {
					t.Fatalf("splitHTTP(%q, %v) = %d with a %d-byte frame", rest, atEOF, adv, len(frame))
				}
				if adv == 0 {
					break
				}
				if frame != nil {
					if req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(frame))); err == nil {
						if _, err := io.ReadAll(req.Body); err != nil {
							t.Fatalf("body of %q: %v", frame, err)
						}
					}
				}
				rest = rest[adv:]
			}
		}
	})
}
