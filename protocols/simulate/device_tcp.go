package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// tcpDevice is a tracker on a TCP protocol: it connects, logs in, then sends
// a position every interval while a reader goroutine matches the server's
// ACKs to the frames in flight.
type tcpDevice struct {
	deviceBase
	serial uint16
}

// inFlight is a position frame waiting for its ACK.
type inFlight struct {
	serial uint16
	sent   time.Time
}

// maxInFlight bounds the frames awaiting an ACK on one connection; when it
// is reached the device holds its next fix until an ACK arrives, as a
// tracker buffering fixes would. The queue is allocated per connection, so
// it is kept small: 5,000 devices hold 5 MB.
const maxInFlight = 32

// link is one connection, shared by the sender and its reader.
type link struct {
	conn     net.Conn
	inflight chan inFlight // FIFO: the server answers a connection's frames in order; nil without ACKs
	loggedIn chan struct{} // closed at the login answer
	acks     chan struct{} // a token per matched ACK, in a closed loop; nil otherwise
	exited   chan struct{} // closed when the reader stops
	err      error         // why the reader stopped; read once exited is closed
}

var errNoLogin = errors.New("no answer to the login frame (is the device registered?)")

func (d *tcpDevice) loop(ctx context.Context) {
	if !sleep(ctx, d.startDelay()) {
		return
	}
	b := backoff{min: d.r.tm.backoffMin, max: d.r.tm.backoff}
	for {
		began := time.Now()
		err := d.session(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		if time.Since(began) > time.Minute {
			b.reset() // it was working: come back quickly
		}
		if !d.retry(ctx, &b, err) {
			return
		}
	}
}

// session runs one connection until ctx is done (nil) or it fails.
func (d *tcpDevice) session(ctx context.Context) error {
	dialer := net.Dialer{Timeout: d.r.tm.dial}
	conn, err := dialer.DialContext(ctx, "tcp", d.r.addr)
	if err != nil {
		return err
	}
	l := &link{conn: conn, loggedIn: make(chan struct{}), exited: make(chan struct{})}
	if d.r.codec.noAck() == "" {
		l.inflight = make(chan inFlight, maxInFlight)
	}
	if d.r.opts.ClosedLoop {
		l.acks = make(chan struct{}, 1)
	}
	go d.read(l)
	defer func() {
		conn.Close()
		<-l.exited
		d.r.stats.unacked.Add(uint64(len(l.inflight)))
	}()

	d.serial++
	// A protocol without a login (the id in every report) starts at once.
	if login := d.r.codec.login(d.id, d.serial); login != nil {
		if err := d.write(l, login); err != nil {
			return err
		}
		if err := d.awaitLogin(ctx, l); err != nil || ctx.Err() != nil {
			return err
		}
	}
	d.r.stats.connected.Add(1)
	defer d.r.stats.connected.Add(-1)
	if l.acks != nil {
		return d.closedLoop(ctx, l)
	}

	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	next := time.Now()
	for {
		wait := d.interval()
		next = next.Add(wait)
		timer.Reset(time.Until(next))
		select {
		case <-ctx.Done():
			d.finish(l)
			return nil
		case <-l.exited:
			return fmt.Errorf("connection lost: %w", l.err)
		case <-timer.C:
		}
		d.serial++
		frame := d.r.codec.position(d.id, d.fix(wait), d.serial)
		if l.inflight != nil {
			select {
			case l.inflight <- inFlight{d.serial, time.Now()}:
			case <-ctx.Done():
				d.finish(l)
				return nil
			case <-l.exited:
				return fmt.Errorf("connection lost: %w", l.err)
			}
		}
		d.r.stats.sent.Add(1)
		if err := d.write(l, frame); err != nil {
			return err
		}
	}
}

// closedLoop sends a position, waits for its ACK, and sends the next one at
// once (Options.ClosedLoop). A frame left unanswered for the login timeout
// is given up: the next one goes, and the reader counts the first as
// unacknowledged when a later ACK skips it.
func (d *tcpDevice) closedLoop(ctx context.Context, l *link) error {
	wait := time.NewTimer(time.Hour)
	defer wait.Stop()
	last := time.Now()
	for {
		select {
		case <-l.acks: // a late ACK of a frame given up
		default:
		}
		d.serial++
		now := time.Now()
		frame := d.r.codec.position(d.id, d.fix(now.Sub(last)), d.serial)
		last = now
		select {
		case l.inflight <- inFlight{d.serial, now}:
		default: // full of frames given up: the server is not answering
			return errors.New("no ACKs")
		}
		d.r.stats.sent.Add(1)
		if err := d.write(l, frame); err != nil {
			return err
		}
		wait.Reset(d.r.tm.login)
		select {
		case <-l.acks:
		case <-wait.C:
		case <-ctx.Done():
			d.finish(l)
			return nil
		case <-l.exited:
			return fmt.Errorf("connection lost: %w", l.err)
		}
	}
}

func (d *tcpDevice) write(l *link, frame []byte) error {
	l.conn.SetWriteDeadline(time.Now().Add(d.r.tm.dial))
	if _, err := l.conn.Write(frame); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func (d *tcpDevice) awaitLogin(ctx context.Context, l *link) error {
	if _, silent := d.r.codec.(silentLogin); silent {
		return nil
	}
	t := time.NewTimer(d.r.tm.login)
	defer t.Stop()
	select {
	case <-l.loggedIn:
		return nil
	case <-l.exited:
		return fmt.Errorf("connection closed before the login answer: %w", l.err)
	case <-t.C:
		return errNoLogin
	case <-ctx.Done():
		return nil
	}
}

// finish ends a connection at the end of the run: half-closing makes the
// server read to the end, store and answer every frame, then close, which
// stops the reader. Closing outright could reset the connection and lose
// frames the server has not read yet.
func (d *tcpDevice) finish(l *link) {
	d.r.stats.atEnd.Add(1)
	if tc, ok := l.conn.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	t := time.NewTimer(d.r.tm.drain)
	defer t.Stop()
	select {
	case <-l.exited:
	case <-t.C:
	}
}

// read cuts the server's messages until the connection ends.
func (d *tcpDevice) read(l *link) {
	defer close(l.exited)
	buf := make([]byte, 512)
	n := 0 // bytes held in buf
	loggedIn := false
	for {
		m, err := l.conn.Read(buf[n:])
		n += m
		start := 0
		for start < n {
			r := d.r.codec.cut(buf[start:n], loggedIn)
			if r.n == 0 {
				break
			}
			start += r.n
			switch {
			case r.kind == replyLogin && !loggedIn:
				loggedIn = true
				close(l.loggedIn)
			case r.kind == replyAck:
				d.acked(l, r.serial)
			}
		}
		n = copy(buf, buf[start:n])
		if n == len(buf) { // an unfinished message fills the buffer; cut bounds it
			buf = append(buf, make([]byte, len(buf))...)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("closed by the server")
			}
			l.err = err
			return
		}
	}
}

// acked matches an ACK to the oldest frame in flight. A frame whose serial
// the ACK skips was not stored (the server answers nothing then): it is
// counted as unacknowledged.
func (d *tcpDevice) acked(l *link, serial int) {
	for {
		select {
		case p := <-l.inflight:
			if serial >= 0 && int(p.serial) != serial {
				d.r.stats.unacked.Add(1)
				continue
			}
			d.r.lat.record(time.Since(p.sent))
			d.r.stats.acked.Add(1)
			select {
			case l.acks <- struct{}{}:
			default: // not a closed loop (nil), or a token is waiting
			}
			return
		default:
			return // nothing in flight: not an answer to us
		}
	}
}
