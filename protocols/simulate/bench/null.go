package bench

import (
	"bufio"
	"context"
	"errors"
	"net"
	"sync"

	"github.com/fleetd/fleetd/protocols/gt06"
)

// NullGT06 is the ceiling of the network path: a GT06 server that accepts
// connections, cuts frames as fleetd's listener does (gt06.Split, one
// buffered reader per connection) and answers each one at once with the
// reply fleetd sends after storing it (the login with 0x01, a position with
// its own type and serial), one write per frame. It stores and decodes
// nothing. It returns when ctx is done or the listener fails.
func NullGT06(ctx context.Context, ln net.Listener) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	var mu sync.Mutex
	conns := map[net.Conn]struct{}{}
	stop := context.AfterFunc(ctx, func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for c := range conns {
			c.Close()
		}
	})
	defer stop()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		mu.Lock()
		conns[c] = struct{}{}
		mu.Unlock()
		wg.Go(func() {
			nullConn(c)
			mu.Lock()
			delete(conns, c)
			mu.Unlock()
			c.Close()
		})
	}
}

// nullConn answers one connection's frames until it ends.
func nullConn(c net.Conn) {
	s := bufio.NewScanner(c)
	s.Buffer(make([]byte, 2048), gt06.MaxFrame)
	s.Split(gt06.New().Split)
	for s.Scan() {
		if _, err := c.Write(NullReply(s.Bytes())); err != nil {
			return
		}
	}
}

// NullReply is the answer to one whole GT06 frame: an empty frame of the
// same protocol number echoing the serial, which is fleetd's reply to a
// login and its ACK of a stored position.
func NullReply(frame []byte) []byte {
	typeAt := 3 // 78 78 len type
	if frame[0] == 0x79 {
		typeAt = 4 // 79 79 len len type
	}
	n := len(frame)
	if n < typeAt+7 {
		return nil
	}
	return gt06.Frame(int(frame[typeAt]), nil, uint16(frame[n-6])<<8|uint16(frame[n-5]))
}
