package protocols

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
)

// Sink is what the listeners need from the core (app.Core implements it).
type Sink interface {
	Identify(protocol, uniqueID, remote string) (*model.Device, error)
	// Registered looks a device up without Identify's side effects (the
	// unknown list, auto-registration): a frame whose checksum failed may
	// carry a corrupt id.
	Registered(uniqueID string) (*model.Device, error)
	// Ingest returns once the positions are durable. It sets the DeviceID
	// of every position it took; one it dropped as impossible keeps 0.
	Ingest(deviceID int64, positions []*model.Position) error
	Connected(deviceID int64, conn ingest.DeviceConn) (release func())
	CommandResult(deviceID int64, result string) error
}

// DefaultFrameTimeout is how long a frame may take from its first byte to
// its last: a watch's 128 KiB voice message over GPRS takes about 30 s.
const DefaultFrameTimeout = time.Minute

// Options bound what one device connection may cost.
type Options struct {
	IdleTimeout   time.Duration // a connection that completes no frame for this long is closed
	FrameTimeout  time.Duration // a frame not whole this long after its first byte drops the connection
	WriteTimeout  time.Duration
	MaxFrame      int // bytes; a longer frame drops the connection
	MaxConnsPerIP int // carriers put many devices behind one NAT address, so keep it generous
	UDPWorkers    int
	// Budget bounds the bytes unfinished frames hold on all connections of
	// the listeners sharing it; nil: one of DefaultFrameBudget of its own.
	Budget *FrameBudget
	Logger *slog.Logger
	// AckLatency, when set, is told how long each acknowledged frame took
	// from its arrival to its ACK being written (metrics). It must not block.
	AckLatency func(protocol string, d time.Duration)
	// Ingested, when set, is told of every call handing positions to the
	// sink: how many, how long it took until they were durable, and its
	// error (metrics). It must not block.
	Ingested func(positions int, took time.Duration, err error)
	// Tap, when set, is told of every frame the listener reads, with the
	// problem that kept it from being used ("" when it was used): the
	// raw-frame inbox keeps the ones with a problem. It must not block,
	// and must copy Data to keep it.
	Tap func(inbox.Seen)
}

func (o *Options) defaults() {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 10 * time.Minute
	}
	if o.FrameTimeout <= 0 {
		o.FrameTimeout = DefaultFrameTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.MaxFrame <= 0 {
		o.MaxFrame = 64 << 10
	}
	if o.MaxConnsPerIP <= 0 {
		o.MaxConnsPerIP = 1000
	}
	if o.UDPWorkers <= 0 {
		o.UDPWorkers = 32
	}
	if o.Budget == nil {
		o.Budget = NewFrameBudget(DefaultFrameBudget)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Counters are a listener's health numbers.
type Counters struct {
	Connections, Rejected, Frames, ChecksumErrors, DecodeErrors, Panics, Oversized, Unknown atomic.Uint64
	// Unsupported counts well-formed frames of a type not decoded.
	Unsupported atomic.Uint64
	// TimedOut counts frames not whole within the frame timeout, Evicted
	// unfinished frames dropped to keep the frame budget.
	TimedOut, Evicted atomic.Uint64
	// Open is the number of connections open now.
	Open atomic.Int64
	// Buffered is the bytes the listener's unfinished frames hold now.
	Buffered atomic.Int64
}

// Server is one protocol's TCP listener (plus UDP for Datagram protocols).
type Server struct {
	name  string
	split bufio.SplitFunc
	// connSplit, when set, makes the split of one connection (one that
	// answers the peer while a frame is still coming) in place of split.
	connSplit func(c *conn) bufio.SplitFunc
	// handle takes one frame of a connection; false closes it.
	handle func(c *conn, frame []byte) bool
	proto  Stream // nil on an HTTP protocol's listener
	sink   Sink
	opts   Options
	log    *slog.Logger
	Stats  Counters

	ln  net.Listener
	udp net.PacketConn

	mu    sync.Mutex
	perIP map[string]int
	conns map[*conn]struct{}
	wg    sync.WaitGroup
	done  chan struct{}

	closeOnce sync.Once
}

// Listen starts serving proto on addr ("host:port"; port 0 picks one).
func Listen(proto Stream, addr string, sink Sink, opts Options) (*Server, error) {
	opts.defaults()
	if fl, ok := proto.(FrameLimiter); ok {
		opts.MaxFrame = max(opts.MaxFrame, fl.MaxFrameSize())
	}
	s, err := listen(proto.Name(), proto.Split, addr, sink, opts)
	if err != nil {
		return nil, err
	}
	s.setStream(proto)
	if dg, ok := proto.(Datagram); ok {
		udp, err := net.ListenPacket("udp", s.ln.Addr().String())
		if err != nil {
			s.ln.Close()
			return nil, fmt.Errorf("%s udp: %w", proto.Name(), err)
		}
		s.udp = udp
		for i := 0; i < opts.UDPWorkers; i++ {
			s.wg.Add(1)
			go s.serveUDP(dg)
		}
	}
	s.start()
	return s, nil
}

// setStream makes s serve the stream protocol proto.
func (s *Server) setStream(proto Stream) { s.proto, s.handle = proto, (*conn).frame }

// listen opens the TCP listener of the protocol called name, whose frames
// split cuts; opts has its defaults. The caller sets handle, then starts it.
func listen(name string, split bufio.SplitFunc, addr string, sink Sink, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return newServer(name, split, ln, sink, opts), nil
}

// newServer is a server taking its connections from ln.
func newServer(name string, split bufio.SplitFunc, ln net.Listener, sink Sink, opts Options) *Server {
	return &Server{name: name, split: split, sink: sink, opts: opts, ln: ln, perIP: map[string]int{},
		conns: map[*conn]struct{}{}, done: make(chan struct{}), log: opts.Logger.With("protocol", name)}
}

// start accepts connections.
func (s *Server) start() {
	s.wg.Add(1)
	go s.accept()
}

// Addr is the TCP address listened on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Close stops accepting, closes every connection and waits for them. It
// may be called more than once.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() { err = s.shutdown() })
	return err
}

func (s *Server) shutdown() error {
	close(s.done)
	err := s.ln.Close()
	if s.udp != nil {
		s.udp.Close()
	}
	s.mu.Lock()
	for c := range s.conns {
		c.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.log.Error("accept failed", "err", err)
			time.Sleep(100 * time.Millisecond) // e.g. out of file descriptors: do not spin
			continue
		}
		c := s.admit(nc)
		if c == nil {
			s.Stats.Rejected.Add(1)
			nc.Close()
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.release(c)
			c.serve()
		}()
	}
}

func hostOf(addr net.Addr) string {
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// admit applies the per-address cap (an IPv6 peer counts by its /64, as
// app.AddressKey counts) and registers the connection.
func (s *Server) admit(nc net.Conn) *conn {
	host := throttle.AddressKey(hostOf(nc.RemoteAddr()))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perIP[host] >= s.opts.MaxConnsPerIP {
		return nil
	}
	s.perIP[host]++
	s.Stats.Connections.Add(1)
	s.Stats.Open.Add(1)
	c := &conn{srv: s, nc: nc, host: host, state: &Conn{Remote: nc.RemoteAddr().String()}}
	s.conns[c] = struct{}{}
	return c
}

func (s *Server) release(c *conn) {
	c.nc.Close()
	if c.releaseDevice != nil {
		c.releaseDevice()
	}
	c.mu.Lock()
	c.state.Release()
	c.mu.Unlock()
	s.Stats.Open.Add(-1)
	s.mu.Lock()
	delete(s.conns, c)
	if s.perIP[c.host]--; s.perIP[c.host] <= 0 {
		delete(s.perIP, c.host)
	}
	s.mu.Unlock()
}

// conn is one device connection; it is also the app.DeviceConn commands
// are sent through.
type conn struct {
	srv  *Server
	nc   net.Conn
	host string

	mu            sync.Mutex // guards state and writes (commands arrive from other goroutines)
	state         *Conn
	device        *model.Device
	releaseDevice func()
}

func (c *conn) Protocol() string { return c.srv.proto.Name() }

func (c *conn) Send(cmd *model.Command) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, err := c.srv.proto.Encode(c.state, cmd)
	if err != nil {
		return err
	}
	return c.writeLocked(data)
}

func (c *conn) write(data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeLocked(data)
}

func (c *conn) writeLocked(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	c.nc.SetWriteDeadline(time.Now().Add(c.srv.opts.WriteTimeout))
	_, err := c.nc.Write(data)
	return err
}

func (c *conn) serve() {
	split := c.srv.split
	if c.srv.connSplit != nil {
		split = c.srv.connSplit(c)
	}
	fr := connFrameReader(c.nc, split, &c.srv.opts, &c.srv.Stats)
	defer fr.Close()
	for {
		frame, err := fr.Next()
		if err != nil {
			c.ended(err)
			return
		}
		if !c.srv.handle(c, frame) {
			return
		}
	}
}

// ended counts and logs why the frame reader ended the connection. Frames
// dropped by the budget are counted by the budget, as it drops them.
func (c *conn) ended(err error) {
	var sp *SplitPanic
	switch {
	case errors.As(err, &sp):
		c.srv.Stats.Panics.Add(1)
		c.srv.log.Error("split panic, connection closed", "remote", c.state.Remote, "panic", sp.Value, "stack", string(sp.Stack))
	case errors.Is(err, bufio.ErrTooLong):
		c.srv.Stats.Oversized.Add(1)
		c.srv.log.Debug("frame too long, connection dropped", "remote", c.state.Remote, "max", c.srv.opts.MaxFrame)
	case errors.Is(err, ErrFrameTimeout):
		c.srv.Stats.TimedOut.Add(1)
		c.srv.log.Debug("frame not finished in time, connection dropped", "remote", c.state.Remote)
	case errors.Is(err, ErrOverBudget):
		c.srv.log.Debug("unfinished frame dropped for the frame budget, connection closed", "remote", c.state.Remote)
	}
}

// decode runs the protocol decoder, turning a panic into an error so one
// bad frame closes one connection, never the listener.
func (c *conn) decode(frame []byte) (res Result, err error, panicked bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			c.srv.Stats.Panics.Add(1)
			c.srv.log.Error("decoder panic, connection closed", "remote", c.state.Remote,
				"frame", fmt.Sprintf("%x", frame), "panic", r, "stack", string(debug.Stack()))
			panicked = true
		}
	}()
	res, err = c.srv.proto.Decode(c.state, frame)
	return res, err, false
}

// frame handles one frame of a stream protocol; false closes the connection.
func (c *conn) frame(frame []byte) bool {
	arrived := time.Now()
	c.srv.Stats.Frames.Add(1)
	res, err, panicked := c.decode(frame)
	if panicked {
		c.tap(frame, "", "decoder failed")
		return false
	}
	if err != nil {
		c.srv.Stats.DecodeErrors.Add(1)
		c.srv.log.Debug("frame not decoded", "remote", c.state.Remote, "err", err)
		c.tap(frame, res.UniqueID, "not decoded: "+err.Error())
		return true
	}
	if res.ChecksumError {
		c.srv.Stats.ChecksumErrors.Add(1)
		if !c.checksumWaived(res.UniqueID) {
			c.srv.log.Debug("checksum mismatch", "remote", c.state.Remote, "frame", fmt.Sprintf("%x", frame))
			c.tap(frame, res.UniqueID, inbox.ChecksumMismatch)
			return true // neither stored nor answered: the device resends
		}
	}
	if res.UniqueID != "" && (c.device == nil || c.device.UniqueID != res.UniqueID) {
		c.identify(res.UniqueID)
	}
	if c.device == nil {
		problem := inbox.UnknownDevice
		if res.UniqueID == "" && c.state.UniqueID == "" {
			problem = "no device id yet (no login on this connection)"
		}
		c.tap(frame, res.UniqueID, problem)
		return true // unknown device: no reply, nothing stored, nothing acknowledged
	}
	if res.Unsupported != "" {
		c.srv.Stats.Unsupported.Add(1)
		c.tap(frame, "", res.Unsupported)
		return true // not understood, so not stored: no answer, the device keeps it
	}
	c.tap(frame, "", "")
	if c.write(res.Reply) != nil {
		return false
	}
	if len(res.Positions) > 0 {
		if err := c.srv.ingest(c.device.ID, res.Positions); err != nil {
			return true // not stored: no ACK, the device will resend
		}
		if problem := dropped(res.Positions); problem != "" {
			c.tap(frame, "", problem) // acknowledged all the same: resending it would not make it possible
		}
	}
	if res.CommandResult != "" {
		c.srv.sink.CommandResult(c.device.ID, res.CommandResult)
	}
	if c.write(res.Ack) != nil {
		return false
	}
	c.srv.acked(res.Ack, arrived)
	return true
}

// checksumWaived tells whether the device sending a frame with a bad
// checksum is marked to have it accepted. The device is read afresh (the
// mark may have been set since the connection began), by the frame's own
// id when it names one, without registering it: its id may be the corrupt
// part.
func (c *conn) checksumWaived(uniqueID string) bool {
	if uniqueID == "" && c.device != nil {
		uniqueID = c.device.UniqueID
	}
	if uniqueID == "" {
		return false
	}
	d, _ := c.srv.sink.Registered(uniqueID)
	return d != nil && ingest.ChecksumWaived(d)
}

// tap tells the Tap hook of a frame of this connection.
func (c *conn) tap(frame []byte, uniqueID, problem string) {
	if c.srv.opts.Tap == nil {
		return
	}
	s := inbox.Seen{Protocol: c.srv.name, Remote: c.state.Remote, UniqueID: uniqueID, Data: frame, Problem: problem}
	if c.device != nil {
		s.DeviceID, s.UniqueID = c.device.ID, c.device.UniqueID
	}
	if s.UniqueID == "" {
		s.UniqueID = c.state.UniqueID
	}
	c.srv.opts.Tap(s)
}

// acked reports an ACK's latency to the AckLatency hook.
func (s *Server) acked(ack []byte, arrived time.Time) {
	if len(ack) > 0 && s.opts.AckLatency != nil {
		s.opts.AckLatency(s.proto.Name(), time.Since(arrived))
	}
}

func (c *conn) identify(uniqueID string) {
	d, err := c.srv.sink.Identify(c.srv.proto.Name(), uniqueID, c.state.Remote)
	if c.releaseDevice != nil {
		c.releaseDevice()
		c.releaseDevice = nil
	}
	c.device = d
	if err != nil {
		c.srv.Stats.Unknown.Add(1)
		// Debug only: anyone can send ids, and a line each would let them
		// flood the log. Unknown devices are listed for administrators
		// (GET /api/devices/unknown) and counted in /metrics.
		c.srv.log.Debug("device rejected", "uniqueId", uniqueID, "remote", c.state.Remote, "err", err)
		return
	}
	c.mu.Lock()
	c.state.UniqueID, c.state.Model = d.UniqueID, d.Model
	c.mu.Unlock()
	c.releaseDevice = c.srv.sink.Connected(d.ID, c)
}

func (s *Server) ingest(deviceID int64, positions []*model.Position) error {
	for _, p := range positions {
		if p.Protocol == "" {
			p.Protocol = s.proto.Name()
		}
	}
	return s.store(deviceID, positions)
}

// store hands positions to the sink and tells the Ingested hook. The sink
// logs failures, condensed (app.Core.Ingest).
func (s *Server) store(deviceID int64, positions []*model.Position) error {
	began := time.Now()
	err := s.sink.Ingest(deviceID, positions)
	if s.opts.Ingested != nil {
		s.opts.Ingested(len(positions), time.Since(began), err)
	}
	return err
}

func (s *Server) serveUDP(dg Datagram) {
	defer s.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, addr, err := s.udp.ReadFrom(buf)
		if err != nil {
			select {
			case <-s.done:
				return
			default:
				continue
			}
		}
		s.Stats.Frames.Add(1)
		s.packet(dg, buf[:n], addr)
	}
}

// packet handles one self-contained UDP packet.
func (s *Server) packet(dg Datagram, data []byte, addr net.Addr) {
	arrived := time.Now()
	res, err := s.decodePacket(dg, &Conn{Remote: addr.String()}, data, addr)
	seen := inbox.Seen{Protocol: s.name, Remote: addr.String(), UniqueID: res.UniqueID, Data: data}
	switch {
	case err != nil:
		s.Stats.DecodeErrors.Add(1)
		seen.Problem = "not decoded: " + err.Error()
	case res.UniqueID == "":
		s.Stats.DecodeErrors.Add(1)
		seen.Problem = "no device id in the packet"
	case res.ChecksumError:
		s.Stats.ChecksumErrors.Add(1)
		if d, _ := s.sink.Registered(res.UniqueID); d == nil || !ingest.ChecksumWaived(d) {
			seen.Problem = inbox.ChecksumMismatch
		}
	}
	if seen.Problem != "" {
		s.tapped(seen)
		return
	}
	d, err := s.sink.Identify(s.proto.Name(), res.UniqueID, addr.String())
	if err != nil {
		s.Stats.Unknown.Add(1)
		seen.Problem = inbox.UnknownDevice
		s.tapped(seen)
		return
	}
	if d.Model != "" {
		// The packet names its device only once decoded: decoded again
		// for a model whose layout differs.
		if again, err := s.decodePacket(dg, &Conn{Remote: addr.String(), UniqueID: d.UniqueID, Model: d.Model}, data, addr); err == nil {
			res = again
		}
	}
	seen.DeviceID, seen.Problem = d.ID, res.Unsupported
	s.tapped(seen)
	if res.Unsupported != "" {
		s.Stats.Unsupported.Add(1)
		return
	}
	if len(res.Positions) > 0 {
		if s.ingest(d.ID, res.Positions) != nil {
			return
		}
		if seen.Problem = dropped(res.Positions); seen.Problem != "" {
			s.tapped(seen)
		}
	}
	for _, out := range [][]byte{res.Reply, res.Ack} {
		if len(out) > 0 {
			s.udp.WriteTo(out, addr)
		}
	}
	s.acked(res.Ack, arrived)
}

// dropped names the first of positions the ingest dropped as impossible,
// with the values that made it so, for the inbox; "" when it took them all.
func dropped(positions []*model.Position) string {
	for _, p := range positions {
		if p.DeviceID == 0 {
			return fmt.Sprintf("position dropped as impossible: fix time %s, latitude %.6f, longitude %.6f "+
				"(off the globe, before 2000 or more than a day ahead)", p.FixTime.UTC().Format(time.RFC3339), p.Latitude, p.Longitude)
		}
	}
	return ""
}

// decodePacket runs the decoder on one packet, a panic made an error.
func (s *Server) decodePacket(dg Datagram, state *Conn, data []byte, addr net.Addr) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.Stats.Panics.Add(1)
			err = fmt.Errorf("decoder panic: %v", r)
			s.log.Error("decoder panic on udp packet", "remote", addr, "packet", fmt.Sprintf("%x", data), "panic", r)
		}
	}()
	return dg.DecodeDatagram(state, data)
}

func (s *Server) tapped(seen inbox.Seen) {
	if s.opts.Tap != nil {
		s.opts.Tap(seen)
	}
}
