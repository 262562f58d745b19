//go:build !unix

package protocols

import "net"

// readableWaiter is nil where a connection cannot wait for bytes without
// reading them: an idle connection then waits in a read with a chunk.
func readableWaiter(net.Conn) func() error { return nil }
