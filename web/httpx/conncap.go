package httpx

import (
	"io"
	"net"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/throttle"
)

// LimitPerAddress caps the connections one client address (an IPv6 one by
// its /64, as app.AddressKey counts) holds open on ln at once. A
// connection past the cap is answered 429 and closed before the HTTP
// server sees it, so one address cannot take every connection the server
// allows. Behind a reverse proxy every client has the proxy's address:
// do not use it there.
func LimitPerAddress(ln net.Listener, max int) net.Listener {
	return &capListener{Listener: ln, max: max, open: map[string]int{}}
}

type capListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

// tooMany is the whole answer to a connection over the cap.
const tooMany = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 107\r\n\r\n" +
	`{"message":"Too many connections","description":"this address has too many connections open to the server"}`

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host, _, err := net.SplitHostPort(c.RemoteAddr().String())
		if err != nil {
			host = c.RemoteAddr().String()
		}
		key := throttle.AddressKey(host)
		l.mu.Lock()
		admitted := l.open[key] < l.max
		if admitted {
			l.open[key]++
		}
		l.mu.Unlock()
		if admitted {
			return &cappedConn{Conn: c, release: func() { l.release(key) }}, nil
		}
		go refuse(c) // never block Accept on a client that does not read
	}
}

func (l *capListener) release(key string) {
	l.mu.Lock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
	l.mu.Unlock()
}

// refuse answers 429 and closes, reading what the client sent meanwhile
// for at most a second: closing with unread bytes would reset the
// connection, and the client might lose the answer.
func refuse(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := io.WriteString(c, tooMany); err != nil {
		return
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	io.Copy(io.Discard, io.LimitReader(c, 64<<10))
}

// cappedConn gives its place back once, however often it is closed.
type cappedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
