//go:build !unix

package protocols

import "net"

// chunkReader returns how nc's bytes are read into chunks: where a
// connection cannot wait for bytes without a buffer to read them into, it
// waits in a plain Read with a chunk.
func chunkReader(nc net.Conn) func(limit int) (*[chunkSize]byte, int, error) {
	return readerChunks(nc)
}
