package protocols

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"strconv"
)

// An HTTP protocol's requests are read as frames by the same frame reader
// as every device stream (frame budget, frame timeout, idle connections
// holding no buffer), then parsed by net/http and answered on the
// connection: an HTTP server of its own would hold buffers and a large
// goroutine per connection whatever the peer sends.

// maxHTTPHead bounds a request's line and header fields together: Traccar's
// decoder allows a 4 KiB line and 8 KiB of fields.
const maxHTTPHead = 12 << 10

var (
	errHTTPHead    = errors.New("http: request line and header fields longer than 12 KiB")
	errHTTPFraming = errors.New("http: bad Content-Length or chunked body")
)

// splitHTTP cuts one HTTP/1.x request: its head up to the empty line, then
// the body its Content-Length or chunked encoding delimits. The frame limit
// bounds the whole; a declared length reserves nothing. Empty lines before
// a request are skipped (RFC 9112, 2.2).
func splitHTTP(data []byte, atEOF bool) (int, []byte, error) {
	if skip := len(data) - len(bytes.TrimLeft(data, "\r\n")); skip > 0 {
		return skip, nil, nil
	}
	// The bound holds however the head came: whole in one read, or past
	// the bound before its end.
	head := headEnd(data)
	switch {
	case head > maxHTTPHead, head < 0 && len(data) > maxHTTPHead:
		return 0, nil, errHTTPHead
	case head < 0:
		return 0, nil, nil
	}
	length, chunked, err := bodyFraming(data[:head])
	if err != nil {
		return 0, nil, err
	}
	if chunked {
		if length, err = chunkedLength(data[head:]); err != nil || length < 0 {
			return 0, nil, err
		}
	}
	if len(data)-head < length {
		return 0, nil, nil
	}
	return head + length, data[:head+length], nil
}

// splitContinuing is splitHTTP for one connection that also honours
// "Expect: 100-continue" (RFC 9110, 10.1.1): once the head of such a
// request has come and its body has not, the client is told to send it,
// not left waiting for its own timeout (a second, for curl).
func splitContinuing(c *conn) bufio.SplitFunc {
	told := false // the request being read was told to continue
	return func(data []byte, atEOF bool) (int, []byte, error) {
		advance, frame, err := splitHTTP(data, atEOF)
		switch {
		case advance > 0 || err != nil:
			told = false
		case !told && !atEOF:
			// Nothing cut: data starts with a request, whole but for its
			// body when its head has come.
			if head := headEnd(data); head >= 0 && expectsContinue(data[:head]) {
				told = true
				c.write([]byte("HTTP/1.1 100 Continue\r\n\r\n"))
			}
		}
		return advance, frame, err
	}
}

// expectsContinue reports whether an HTTP/1.1 request's head asks for a
// 100 (Continue) before its body; an HTTP/1.0 one's expectation is ignored.
func expectsContinue(head []byte) bool {
	lines := bytes.Split(head, []byte("\n"))
	if !bytes.HasSuffix(bytes.TrimRight(lines[0], "\r"), []byte(" HTTP/1.1")) {
		return false
	}
	for _, line := range lines[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("Expect")) &&
			bytes.EqualFold(bytes.TrimSpace(value), []byte("100-continue")) {
			return true
		}
	}
	return false
}

// headEnd is the length of the head (through its empty line) at the start
// of data, or -1 when the empty line has not come yet.
func headEnd(data []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
		switch rest := data[i:]; {
		case bytes.HasPrefix(rest, []byte("\n")):
			return i + 1
		case bytes.HasPrefix(rest, []byte("\r\n")):
			return i + 2
		}
	}
}

// bodyFraming reads the body's length, or that it is chunked, from the
// head's fields. A request with neither has no body.
func bodyFraming(head []byte) (length int, chunked bool, err error) {
	lines := bytes.Split(head, []byte("\n"))
	for _, line := range lines[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || line[0] == ' ' || line[0] == '\t' { // a continuation line belongs to the field before
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")):
			// Bounded so the sum with the head cannot overflow on 32 bits.
			n, perr := strconv.ParseUint(string(value), 10, 30)
			if perr != nil {
				return 0, false, errHTTPFraming
			}
			length = int(n)
		case bytes.EqualFold(bytes.TrimSpace(name), []byte("Transfer-Encoding")):
			chunked = true // the only coding net/http accepts; it refuses others
		}
	}
	return length, chunked, nil
}

// chunkedLength is the length of the chunked body at the start of data,
// trailer fields included, or -1 when it has not all come yet.
func chunkedLength(data []byte) (int, error) {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			if len(data)-i > maxHTTPHead {
				return 0, errHTTPFraming
			}
			return -1, nil
		}
		if j == 0 || data[i+j-1] != '\r' {
			return 0, errHTTPFraming // net/http refuses a chunk line ending in a bare LF
		}
		sizeField, _, _ := bytes.Cut(bytes.TrimSpace(data[i:i+j]), []byte(";"))
		size, err := strconv.ParseUint(string(bytes.TrimSpace(sizeField)), 16, 30)
		if err != nil {
			return 0, errHTTPFraming
		}
		i += j + 1
		if size == 0 { // the last chunk, then trailer fields up to an empty line
			if bytes.HasPrefix(data[i:], []byte("\r\n")) {
				return i + 2, nil
			}
			if bytes.HasPrefix(data[i:], []byte("\n")) {
				// net/http takes the end of the trailer only as "\r\n":
				// a bare LF there is an unexpected EOF to it.
				return 0, errHTTPFraming
			}
			if end := headEnd(data[i:]); end >= 0 {
				return i + end, nil
			}
			return -1, nil
		}
		i += int(size)
		switch rest := data[min(i, len(data)):]; {
		case bytes.HasPrefix(rest, []byte("\r\n")):
			i += 2
		case len(rest) < 2 && (len(rest) == 0 || rest[0] == '\r'):
			return -1, nil
		default:
			return 0, errHTTPFraming
		}
	}
}

// request answers one request read whole. A request net/http cannot parse
// gets a 400 and the connection closes; so does one that asks to close.
func (s *HTTPServer) request(c *conn, frame []byte) bool {
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(frame)))
	if err != nil {
		s.Stats.Frames.Add(1)
		s.Stats.DecodeErrors.Add(1)
		w := newResponse()
		http.Error(w, "bad request", http.StatusBadRequest)
		c.write(w.render(http.MethodGet, true))
		return false
	}
	req.RemoteAddr = c.state.Remote
	w := newResponse()
	s.ServeHTTP(w, req)
	return c.write(w.render(req.Method, req.Close)) == nil && !req.Close
}

// response is an http.ResponseWriter that keeps the response to write it
// on the connection whole, with its length.
type response struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newResponse() *response { return &response{header: http.Header{}} }

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *response) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// render writes the response as HTTP/1.1 for a request of method, closing
// the connection when asked.
func (w *response) render(method string, close bool) []byte {
	w.WriteHeader(http.StatusOK)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(w.status) + " " + http.StatusText(w.status) + "\r\n")
	w.header.Set("Content-Length", strconv.Itoa(w.body.Len()))
	if close {
		w.header.Set("Connection", "close")
	}
	w.header.Write(&b)
	b.WriteString("\r\n")
	if method != http.MethodHead {
		b.Write(w.body.Bytes())
	}
	return b.Bytes()
}
