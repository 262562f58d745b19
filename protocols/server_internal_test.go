package protocols

import (
	"net"
	"testing"
)

// addrConn is a connection that is only a remote address.
type addrConn struct {
	net.Conn
	remote net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.remote }
func (c addrConn) Close() error         { return nil }

// The per-address cap counts an IPv6 peer by its /64, as the web listener
// and the login budgets do: a subscriber holds a whole /64 and could open
// the cap's connections again from each of its addresses.
func TestPerIPCapCountsIPv6By64(t *testing.T) {
	s := &Server{opts: Options{MaxConnsPerIP: 2}, perIP: map[string]int{}, conns: map[*conn]struct{}{}}
	peer := func(ip string) net.Conn {
		return addrConn{remote: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}
	}
	for _, tt := range []struct {
		ip    string
		admit bool
	}{
		{"2001:db8:1:2::1", true},
		{"2001:db8:1:2::2", true},
		{"2001:db8:1:2:ffff::3", false}, // the same /64
		{"2001:db8:1:3::1", true},       // another /64
		{"192.0.2.1", true},
		{"192.0.2.1", true},
		{"192.0.2.1", false},
		{"192.0.2.2", true},
	} {
		if got := s.admit(peer(tt.ip)) != nil; got != tt.admit {
			t.Errorf("a connection from %s admitted %v, want %v", tt.ip, got, tt.admit)
		}
	}
	for c := range s.conns {
		s.release(c)
	}
	if len(s.perIP) != 0 {
		t.Errorf("after every connection closed, still counted: %v", s.perIP)
	}
}
