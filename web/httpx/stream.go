package httpx

import (
	"bufio"
	"io"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"
)

// SendStream answers with r's size bytes (-1: until EOF, chunked). Like
// StreamWriter it is a download that may take long: the server's write
// timeout applies to each chunk the client takes, not to the whole body,
// so a slow but moving client is served to the end and one that stops
// reading is cut off after the timeout. r is closed once sent, if it is
// an io.Closer.
func SendStream(c *fiber.Ctx, r io.Reader, size int) error {
	c.Context().SetBodyStream(newPacedWriter(c, r), size)
	return nil
}

// StreamWriter answers with what sw writes, chunked, as it writes it (see
// SendStream for the write timeout). sw runs on a goroutine of its own
// while the response is sent; its writes block until the client takes
// them, and fail once the client is gone: sw must stop then.
func StreamWriter(c *fiber.Ctx, sw func(w *bufio.Writer)) {
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		sw(w)
		pw.CloseWithError(w.Flush())
	}()
	c.Context().SetBodyStream(newPacedWriter(c, pr), -1)
}

// pacedWriter is a response body that pushes the connection's write
// deadline forward each time the server takes a chunk of it to send:
// the previous chunk has left by then.
type pacedWriter struct {
	r       io.Reader
	conn    net.Conn
	timeout time.Duration
}

func newPacedWriter(c *fiber.Ctx, r io.Reader) io.Reader {
	timeout := c.App().Config().WriteTimeout
	if timeout <= 0 {
		return r
	}
	return &pacedWriter{r: r, conn: c.Context().Conn(), timeout: timeout}
}

func (p *pacedWriter) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		if derr := p.conn.SetWriteDeadline(time.Now().Add(p.timeout)); derr != nil && err == nil {
			err = derr
		}
	}
	return n, err
}

// Close closes the source: a file, or the pipe from StreamWriter's writer,
// which ends it when the client has gone.
func (p *pacedWriter) Close() error {
	if c, ok := p.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
