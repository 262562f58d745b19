package catalog

import (
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/protocols"
)

// Listening is the set of started protocol listeners.
type Listening struct {
	closers []io.Closer
	// Addrs are the bound addresses by protocol name (useful with port 0).
	Addrs map[string]net.Addr
	// Stats are the listeners' counters by protocol name (metrics).
	Stats map[string]*protocols.Counters
}

// Start listens on host:port for every protocol in ports (name -> port;
// protocols not in it stay off), and on the shared port when ports has
// protocols.AutoName. On any failure the ones already started
// are closed, so a port clash at start-up leaves nothing half running.
// The listeners share opts.Budget (one of protocols.DefaultFrameBudget when
// nil): unfinished frames on all ports together stay within it.
func Start(host string, ports map[string]int, sink protocols.HTTPSink, opts protocols.Options) (*Listening, error) {
	if opts.Budget == nil {
		opts.Budget = protocols.NewFrameBudget(protocols.DefaultFrameBudget)
	}
	l := &Listening{Addrs: map[string]net.Addr{}, Stats: map[string]*protocols.Counters{}}
	for _, e := range All() {
		port, on := ports[e.Name]
		if !on {
			continue
		}
		addr := net.JoinHostPort(host, fmt.Sprint(port))
		var err error
		switch {
		case e.Stream != nil:
			var s *protocols.Server
			if s, err = protocols.Listen(e.Stream, addr, sink, opts); err == nil {
				l.closers, l.Addrs[e.Name], l.Stats[e.Name] = append(l.closers, s), s.Addr(), &s.Stats
			}
		default:
			var s *protocols.HTTPServer
			if s, err = protocols.ListenHTTP(e.HTTP, addr, sink, opts); err == nil {
				l.closers, l.Addrs[e.Name], l.Stats[e.Name] = append(l.closers, s), s.Addr(), &s.Stats
			}
		}
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("protocols.%s.port: %w", e.Name, err)
		}
	}
	if port, on := ports[protocols.AutoName]; on {
		a, err := protocols.ListenAuto(autoProtocols(), net.JoinHostPort(host, fmt.Sprint(port)), sink, opts)
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("protocols.%s.port: %w", protocols.AutoName, err)
		}
		l.closers, l.Addrs[protocols.AutoName], l.Stats[protocols.AutoName] = append(l.closers, a), a.Addr(), &a.Stats
		for name, c := range a.Protocols() {
			l.Stats[name+"@"+protocols.AutoName] = c
		}
	}
	return l, nil
}

// autoProtocols are every protocol, for the shared port.
func autoProtocols() []protocols.AutoProtocol {
	var out []protocols.AutoProtocol
	for _, e := range All() {
		out = append(out, protocols.AutoProtocol{Stream: e.Stream, HTTP: e.HTTP})
	}
	return out
}

// String lists the listeners as name=address, sorted (the start-up log).
func (l *Listening) String() string {
	var parts []string
	for name, addr := range l.Addrs {
		parts = append(parts, name+"="+addr.String())
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// Close stops every listener.
func (l *Listening) Close() error {
	var errs []error
	for _, c := range l.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Ports are the bound ports by protocol name (the shared port's
// included), as the listeners took them.
func (l *Listening) Ports() map[string]int {
	out := map[string]int{}
	for name, addr := range l.Addrs {
		if a, ok := addr.(*net.TCPAddr); ok {
			out[name] = a.Port
		}
	}
	return out
}
