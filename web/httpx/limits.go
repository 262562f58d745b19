package httpx

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Limits bound what one HTTP request may cost the server: how long its
// parts may take and how large its body may be. The server streams request
// bodies (fasthttp's StreamRequestBody) and ReadBodies reads them, so
// memory follows the bytes that actually arrived, never the Content-Length
// a client declares.
type Limits struct {
	// ReadTimeout is the time a client has for the request line and
	// headers (and the first 8 KiB of a body); a body gets it again.
	ReadTimeout time.Duration
	// MinBodyRate is the average rate, in bytes per second, a body must
	// keep up after its ReadTimeout: each byte received buys 1/MinBodyRate
	// seconds more.
	MinBodyRate int
	// WriteTimeout is the time to send a response; a streamed one
	// (SendStream, StreamWriter) gets it anew for each chunk it sends.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no next request.
	IdleTimeout time.Duration
	// MaxBody caps every request body but an upload.
	MaxBody int
	// MaxUpload caps a multipart/form-data body on a route wrapped in
	// Upload; read after the route's authentication, so an anonymous
	// client never gets more than MaxBody buffered.
	MaxUpload int
	// MaxConns caps the connections open at once (503 past it), and
	// MaxConnsPerIP those of one client address (429, LimitPerAddress).
	MaxConns, MaxConnsPerIP int
}

// DefaultLimits are the limits of a server configured with none.
var DefaultLimits = Limits{
	ReadTimeout:   10 * time.Second,
	MinBodyRate:   1024,
	WriteTimeout:  30 * time.Second,
	IdleTimeout:   time.Minute,
	MaxBody:       1 << 20,
	MaxUpload:     4 << 20,
	MaxConns:      10000,
	MaxConnsPerIP: 1000,
}

// OrDefaults fills l's zero fields from DefaultLimits; MaxBody never
// exceeds MaxUpload.
func (l Limits) OrDefaults() Limits {
	d := DefaultLimits
	l.ReadTimeout = cmp.Or(l.ReadTimeout, d.ReadTimeout)
	l.MinBodyRate = cmp.Or(l.MinBodyRate, d.MinBodyRate)
	l.WriteTimeout = cmp.Or(l.WriteTimeout, d.WriteTimeout)
	l.IdleTimeout = cmp.Or(l.IdleTimeout, d.IdleTimeout)
	l.MaxUpload = cmp.Or(l.MaxUpload, d.MaxUpload)
	l.MaxConns = cmp.Or(l.MaxConns, d.MaxConns)
	l.MaxConnsPerIP = cmp.Or(l.MaxConnsPerIP, d.MaxConnsPerIP)
	l.MaxBody = min(cmp.Or(l.MaxBody, d.MaxBody), l.MaxUpload)
	return l
}

const (
	uploadKey   = "fleetd.upload"    // a held-back upload (heldUpload) until Upload reads it
	bodyReadKey = "fleetd.body.read" // set once read has taken the body whole
)

// heldUpload is a multipart body ReadBodies left on the wire for Upload.
type heldUpload struct {
	l    Limits
	size int
}

// ReadBodies is middleware that reads the request body before any route
// sees it, at most MaxBody bytes, into memory: handlers then use c.Body()
// as usual. A multipart body larger than MaxBody (and at most MaxUpload)
// is held back for Upload to read once the route has authenticated the
// caller; until then it reads as empty, so no other handler takes it in.
// A body that is refused, or that no route read, leaves the rest of it on
// the wire: the server must be wrapped in CloseUnreadBodies.
func (l Limits) ReadBodies() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := l.readBody(c); err != nil {
			return err
		}
		return c.Next()
	}
}

// CloseUnreadBodies wraps the server's handler: a request whose body was
// not read whole (by ReadBodies or Upload) closes its connection after the
// answer, whatever answered it: a route, a middleware that refused it
// before ReadBodies ran (SameSite), Fiber itself (a method it does not
// know), a panic. fasthttp would take what is left of the body on the wire
// for the connection's next request, one the client wrote inside the
// body: behind a proxy that reuses its connections, a request smuggled
// past the proxy and answered to whoever is next on that connection. So
// does a chunked request that also has a Content-Length (RFC 9112,
// section 6.1): a proxy in front may have gone by the length.
func CloseUnreadBodies(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		// A stream: a body was declared (Content-Length, chunks).
		unread := ctx.Request.IsBodyStream() && ctx.Request.Header.ContentLength() != 0
		ambiguous := ctx.Request.Header.ContentLength() == -1 && hasContentLength(ctx.Request.Header.RawHeaders())
		next(ctx)
		if ambiguous || (unread && ctx.UserValue(bodyReadKey) == nil) {
			ctx.SetConnectionClose()
		}
	}
}

// hasContentLength: a Content-Length among raw header lines. fasthttp
// drops the header of a chunked request, or keeps it, by the order of the
// two.
func hasContentLength(raw []byte) bool {
	for line := range bytes.SplitSeq(raw, []byte("\n")) {
		if name, _, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(bytes.TrimSpace(name), []byte(fiber.HeaderContentLength)) {
			return true
		}
	}
	return false
}

func (l Limits) readBody(c *fiber.Ctx) error {
	req := c.Request()
	if !req.IsBodyStream() { // no body (no Content-Length, no chunks)
		return nil
	}
	if compressed(&req.Header) {
		return fiber.NewError(fiber.StatusUnsupportedMediaType, "compressed request bodies are not accepted")
	}
	// Fiber's c.Body() would still decode by a header it finds: none left.
	req.Header.Del(fiber.HeaderContentEncoding)
	// A chunked body (-1: size unknown) is read like any other, so an
	// upload must declare its length (browsers do).
	size := req.Header.ContentLength()
	if size > l.MaxBody {
		switch {
		case len(req.Header.MultipartFormBoundary()) == 0:
			return tooLarge(l.MaxBody)
		case size > l.MaxUpload:
			return tooLarge(l.MaxUpload)
		}
		// fasthttp's body stream ends at the declared length: at 0 it
		// ends before the held-back body.
		req.Header.SetContentLength(0)
		c.Locals(uploadKey, heldUpload{l: l, size: size})
		return nil
	}
	return l.read(c, l.MaxBody)
}

// compressed: a Content-Encoding other than identity, in any of the
// headers. fasthttp's ContentEncoding() is the first header, and Fiber's
// c.Body() decodes by the last, every encoding it lists in turn, without
// a limit on what they expand to.
func compressed(h *fasthttp.RequestHeader) bool {
	for _, v := range h.PeekAll(fiber.HeaderContentEncoding) {
		for _, coding := range bytes.Split(v, []byte(",")) {
			if c := bytes.TrimSpace(coding); len(c) > 0 && !bytes.EqualFold(c, []byte("identity")) {
				return true
			}
		}
	}
	return false
}

// Upload marks a route that takes a multipart upload of up to MaxUpload
// bytes: it reads the body ReadBodies held back, then runs next. Place it
// after the route's authentication.
func Upload(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if u, ok := c.Locals(uploadKey).(heldUpload); ok && c.Request().IsBodyStream() {
			c.Locals(uploadKey, nil)
			c.Request().Header.SetContentLength(u.size)
			if err := u.l.read(c, u.l.MaxUpload); err != nil {
				return err
			}
		}
		return next(c)
	}
}

// read reads the body stream whole, at most limit bytes, and makes it the
// request's body. The buffer grows with what arrives.
func (l Limits) read(c *fiber.Ctx, limit int) error {
	r := &paced{r: c.Request().BodyStream(), conn: c.Context().Conn(), start: time.Now(), l: l}
	body, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fiber.NewError(fiber.StatusRequestTimeout,
			fmt.Sprintf("the request body arrived slower than %d bytes per second", l.MinBodyRate))
	case err != nil:
		return fiber.NewError(fiber.StatusBadRequest, "the request body could not be read: "+err.Error())
	case len(body) > limit:
		return tooLarge(limit)
	}
	c.Request().SetBodyRaw(body)
	c.Request().Header.SetContentLength(len(body))
	c.Locals(bodyReadKey, true)
	return nil
}

func tooLarge(limit int) error {
	return fiber.NewError(fiber.StatusRequestEntityTooLarge, fmt.Sprintf("the request body may have at most %d bytes", limit))
}

// paced reads a body from a connection whose read deadline moves with the
// bytes received: ReadTimeout from the start, plus 1/MinBodyRate seconds
// per byte. A client that stalls, or trickles, runs into it.
type paced struct {
	r     io.Reader
	conn  net.Conn
	start time.Time
	n     int64
	l     Limits
}

func (p *paced) Read(b []byte) (int, error) {
	earned := time.Duration(p.n) * time.Second / time.Duration(p.l.MinBodyRate)
	if err := p.conn.SetReadDeadline(p.start.Add(p.l.ReadTimeout + earned)); err != nil {
		return 0, err
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	return n, err
}
