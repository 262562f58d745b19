//go:build unix

package protocols

import (
	"net"
	"syscall"
)

// readableWaiter returns a function that blocks until nc has bytes to read
// (or its end, or an error, or its read deadline), so that an idle
// connection waits without a read buffer. Nil when nc has no descriptor.
func readableWaiter(nc net.Conn) func() error {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	var peek [1]byte
	ready := func(fd uintptr) bool {
		for {
			// A peek consumes nothing; only "no bytes yet" waits. The end
			// of the stream and errors are left to the read that follows.
			_, _, err := syscall.Recvfrom(int(fd), peek[:], syscall.MSG_PEEK)
			if err != syscall.EINTR {
				return err != syscall.EAGAIN
			}
		}
	}
	return func() error { return rc.Read(ready) }
}
