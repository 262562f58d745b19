//go:build unix

package protocols

import (
	"io"
	"net"
	"os"
	"syscall"
)

// pollReader reads a connection the way its Read does (one read, then a
// wait in the runtime's poller while there is nothing to read), except
// that the chunk is taken from the pool only for a read that finds bytes,
// so a connection waiting for its next frame holds no buffer.
type pollReader struct {
	rc    syscall.RawConn
	try   func(fd uintptr) bool // p.read, bound once
	chunk *[chunkSize]byte
	limit int
	n     int
	err   error
}

// chunkReader returns how nc's bytes are read into chunks: polled on
// descriptors that allow it, else a plain Read.
func chunkReader(nc net.Conn) func(limit int) (*[chunkSize]byte, int, error) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return readerChunks(nc)
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return readerChunks(nc)
	}
	p := &pollReader{rc: rc}
	p.try = p.read
	return p.next
}

// read tries one read; false (nothing there) makes the poller wait.
func (p *pollReader) read(fd uintptr) bool {
	p.chunk = chunks.Get().(*[chunkSize]byte)
	for {
		p.n, p.err = syscall.Read(int(fd), p.chunk[:p.limit])
		if p.err != syscall.EINTR {
			break
		}
	}
	if p.err == syscall.EAGAIN {
		chunks.Put(p.chunk)
		p.chunk = nil
		return false
	}
	return true
}

func (p *pollReader) next(limit int) (*[chunkSize]byte, int, error) {
	p.limit, p.chunk = limit, nil
	if err := p.rc.Read(p.try); err != nil { // the deadline, or the connection closed
		return p.chunk, 0, err
	}
	switch {
	case p.err != nil:
		return p.chunk, 0, os.NewSyscallError("read", p.err)
	case p.n == 0:
		return p.chunk, 0, io.EOF
	}
	return p.chunk, p.n, nil
}
