package protocols

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/throttle"
)

// AutoName is the shared port's name in config keys (protocols.auto.*),
// logs and the raw-frame inbox.
const AutoName = "auto"

// Unrecognized is the inbox's word for bytes no protocol took.
const Unrecognized = "no protocol recognises these bytes"

// maxHead bounds the bytes the shared port reads before it gives up on a
// connection no protocol has recognised: the first frame of every
// protocol (a login, a heartbeat, an HTTP request line) is shorter.
const maxHead = 4 << 10

// AutoProtocol is one protocol the shared port hands connections to:
// exactly one of Stream (which must be a Recognizer) and HTTP is set.
type AutoProtocol struct {
	Stream Stream
	HTTP   HTTPProtocol
}

// Recognizers are how the shared port asks p about a stream's first bytes
// and about a whole datagram (nil: p has no UDP). A datagram must name its
// device (it is answered on its own): unless p recognises its packets
// itself (DatagramRecognizer), p must decode it with its device id.
func (p AutoProtocol) Recognizers() (stream func([]byte) Recognition, datagram func([]byte) bool) {
	if p.Stream == nil {
		return RecognizeHTTP, nil
	}
	stream = p.Stream.(Recognizer).Recognize
	if dg, ok := p.Stream.(Datagram); ok {
		datagram = func(b []byte) bool { return stream(b) == Mine && RecognizePacket(dg, b) }
		if dr, ok := p.Stream.(DatagramRecognizer); ok {
			datagram = dr.RecognizeDatagram
		}
	}
	return stream, datagram
}

// AutoServer is the shared port: it reads the first bytes of each
// connection (each datagram) and hands it to the protocol whose Recognize
// says Mine, behind whose own machinery (frame limits, acknowledgements,
// commands) it then runs as on the protocol's own port.
type AutoServer struct {
	ln      net.Listener
	udp     net.PacketConn
	targets []*autoTarget
	opts    Options
	// Stats counts the shared port's own work: connections, those over
	// the per-address cap (Rejected), those no protocol recognised
	// (Unknown) and those that sent too little in time (TimedOut); Frames
	// counts datagrams.
	Stats Counters

	mu    sync.Mutex
	perIP map[string]int
	wg    sync.WaitGroup
	done  chan struct{}
	once  sync.Once
}

// autoTarget is one protocol behind the shared port.
type autoTarget struct {
	recognize func([]byte) Recognition
	// datagram recognises a whole UDP packet; nil for a protocol without
	// UDP.
	datagram func([]byte) bool
	dg       Datagram
	srv      *Server
	handoff  *handoff
}

// ListenAuto starts the shared port on addr (TCP, and UDP for the
// protocols that have it). The order of protos is the order Recognize is
// asked in; recognisers are exact, so it decides nothing for real frames.
func ListenAuto(protos []AutoProtocol, addr string, sink HTTPSink, opts Options) (*AutoServer, error) {
	opts.defaults()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", AutoName, err)
	}
	udp, err := net.ListenPacket("udp", ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("%s udp: %w", AutoName, err)
	}
	a := &AutoServer{ln: ln, udp: udp, opts: opts, perIP: map[string]int{}, done: make(chan struct{})}
	for _, p := range protos {
		t := &autoTarget{handoff: newHandoff(ln.Addr())}
		switch {
		case p.Stream != nil:
			if _, ok := p.Stream.(Recognizer); !ok {
				a.Close()
				return nil, fmt.Errorf("%s: protocol %s cannot recognise its frames", AutoName, p.Stream.Name())
			}
			o := opts
			if fl, ok := p.Stream.(FrameLimiter); ok {
				o.MaxFrame = max(o.MaxFrame, fl.MaxFrameSize())
			}
			t.srv = newServer(p.Stream.Name(), p.Stream.Split, t.handoff, sink, o)
			t.srv.setStream(p.Stream)
			if dg, ok := p.Stream.(Datagram); ok {
				t.dg, t.srv.udp = dg, udp // replies leave from the shared port
			}
		default:
			t.srv = newServer(p.HTTP.Name(), splitHTTP, t.handoff, sink, opts)
			newHTTPServer(t.srv, p.HTTP, sink, opts)
		}
		t.recognize, t.datagram = p.Recognizers()
		t.srv.start()
		a.targets = append(a.targets, t)
	}
	a.wg.Add(1)
	go a.accept()
	for range opts.UDPWorkers {
		a.wg.Add(1)
		go a.serveUDP()
	}
	return a, nil
}

// Addr is the TCP address listened on.
func (a *AutoServer) Addr() net.Addr { return a.ln.Addr() }

// Protocols are the counters of each protocol on the shared port, by name.
func (a *AutoServer) Protocols() map[string]*Counters {
	out := map[string]*Counters{}
	for _, t := range a.targets {
		out[t.srv.name] = &t.srv.Stats
	}
	return out
}

// Close stops the shared port and every connection it handed on.
func (a *AutoServer) Close() error {
	var err error
	a.once.Do(func() {
		close(a.done)
		err = errors.Join(a.ln.Close(), a.udp.Close())
		for _, t := range a.targets {
			t.srv.Close()
		}
		a.wg.Wait()
	})
	return err
}

func (a *AutoServer) accept() {
	defer a.wg.Done()
	for {
		nc, err := a.ln.Accept()
		if err != nil {
			select {
			case <-a.done:
				return
			default:
			}
			time.Sleep(100 * time.Millisecond) // e.g. out of file descriptors: do not spin
			continue
		}
		host := throttle.AddressKey(hostOf(nc.RemoteAddr()))
		if !a.admit(host) {
			a.Stats.Rejected.Add(1)
			nc.Close()
			continue
		}
		a.Stats.Connections.Add(1)
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			defer a.release(host)
			a.recognize(nc)
		}()
	}
}

// admit counts a connection being recognised against its address's cap.
func (a *AutoServer) admit(host string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.perIP[host] >= a.opts.MaxConnsPerIP {
		return false
	}
	a.perIP[host]++
	return true
}

func (a *AutoServer) release(host string) {
	a.mu.Lock()
	if a.perIP[host]--; a.perIP[host] <= 0 {
		delete(a.perIP, host)
	}
	a.mu.Unlock()
}

// recognize reads the first bytes of nc until a protocol takes it, or
// none can, or it sent too little within the frame timeout.
func (a *AutoServer) recognize(nc net.Conn) {
	nc.SetReadDeadline(time.Now().Add(a.opts.FrameTimeout))
	head := make([]byte, 0, 512)
	buf := make([]byte, 512)
	for {
		n, err := nc.Read(buf[:min(len(buf), maxHead-len(head))])
		head = append(head, buf[:n]...)
		t, undecided := a.pick(head)
		if t != nil {
			nc.SetReadDeadline(time.Time{})
			t.handoff.hand(&prefixConn{Conn: nc, head: head})
			return
		}
		if !undecided || err != nil || len(head) >= maxHead {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && undecided {
				a.Stats.TimedOut.Add(1)
			}
			if len(head) > 0 {
				a.Stats.Unknown.Add(1)
				a.tap(nc.RemoteAddr(), head)
			}
			nc.Close()
			return
		}
	}
}

// pick asks each protocol about head, a stream's first bytes: the first
// that says Mine, and whether any said NeedMore.
func (a *AutoServer) pick(head []byte) (t *autoTarget, undecided bool) {
	for _, t := range a.targets {
		switch safely(t.srv, head, NotMine, t.recognize) {
		case Mine:
			return t, false
		case NeedMore:
			undecided = true
		}
	}
	return nil, undecided
}

// pickDatagram is the protocol that recognises a whole UDP packet.
func (a *AutoServer) pickDatagram(packet []byte) *autoTarget {
	for _, t := range a.targets {
		if t.datagram != nil && safely(t.srv, packet, false, t.datagram) {
			return t
		}
	}
	return nil
}

// safely runs a recogniser, a panic (a bug: they are fuzzed) counted,
// logged and taken as "not mine".
func safely[R any](s *Server, head []byte, no R, recognize func([]byte) R) (r R) {
	defer func() {
		if v := recover(); v != nil {
			s.Stats.Panics.Add(1)
			s.log.Error("recogniser panic", "head", fmt.Sprintf("%x", head), "panic", v)
			r = no
		}
	}()
	return recognize(head)
}

func (a *AutoServer) serveUDP() {
	defer a.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, addr, err := a.udp.ReadFrom(buf)
		if err != nil {
			select {
			case <-a.done:
				return
			default:
				continue
			}
		}
		a.Stats.Frames.Add(1)
		if t := a.pickDatagram(buf[:n]); t != nil {
			t.srv.Stats.Frames.Add(1)
			t.srv.packet(t.dg, buf[:n], addr)
			continue
		}
		a.Stats.Unknown.Add(1)
		a.tap(addr, buf[:n])
	}
}

// tap puts bytes no protocol recognised in the raw-frame inbox, which
// limits what one source address may put there: scanners knock on this
// port.
func (a *AutoServer) tap(remote net.Addr, data []byte) {
	if a.opts.Tap != nil {
		a.opts.Tap(inbox.Seen{Protocol: AutoName, Remote: remote.String(), Data: data, Problem: Unrecognized})
	}
}

// RecognizeHTTP recognises an HTTP request line (OsmAnd and the Traccar
// Client): a method the device protocols use, a space and a target that
// starts with "/".
func RecognizeHTTP(head []byte) Recognition {
	for _, m := range [...]string{"GET ", "POST ", "PUT ", "HEAD "} {
		if len(head) < len(m)+1 {
			if bytes.HasPrefix([]byte(m), head) {
				return NeedMore
			}
			continue
		}
		if bytes.HasPrefix(head, []byte(m)) {
			if head[len(m)] == '/' {
				return Mine
			}
			return NotMine
		}
	}
	return NotMine
}

// prefixConn is a connection whose first bytes were already read.
type prefixConn struct {
	net.Conn
	head []byte
}

func (c *prefixConn) Read(b []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(b, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// handoff is a net.Listener whose connections the shared port hands in.
type handoff struct {
	addr net.Addr
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
}

func newHandoff(addr net.Addr) *handoff {
	return &handoff{addr: addr, ch: make(chan net.Conn), done: make(chan struct{})}
}

// hand passes nc to the protocol's server, or closes it when that is
// closed.
func (h *handoff) hand(nc net.Conn) {
	select {
	case h.ch <- nc:
	case <-h.done:
		nc.Close()
	}
}

func (h *handoff) Accept() (net.Conn, error) {
	select {
	case nc := <-h.ch:
		return nc, nil
	case <-h.done:
		return nil, net.ErrClosed
	}
}

func (h *handoff) Close() error {
	h.once.Do(func() { close(h.done) })
	return nil
}

func (h *handoff) Addr() net.Addr { return h.addr }
