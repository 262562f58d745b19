// Package systemd tells systemd how fleetd serve is doing when it runs as
// a Type=notify service: sd_notify's protocol, one datagram with the state
// on the Unix socket named by NOTIFY_SOCKET.
package systemd

import (
	"log/slog"
	"net"
	"os"
	"strings"
)

// Notify sends state ("READY=1", "STOPPING=1") to systemd's notification
// socket; without NOTIFY_SOCKET it does nothing. A failure is logged: the
// server runs on without it.
func Notify(log *slog.Logger, state string) {
	if err := send(os.Getenv("NOTIFY_SOCKET"), state); err != nil {
		log.Warn("systemd notification failed", "state", state, "err", err)
	}
}

// send writes state to the datagram socket; "" is no socket, a leading @
// an abstract one.
func send(socket, state string) error {
	if socket == "" {
		return nil
	}
	if strings.HasPrefix(socket, "@") { // abstract namespace
		socket = "\x00" + socket[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: socket, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(state))
	return err
}
