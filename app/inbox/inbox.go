// Package inbox keeps the frames fleetd read from devices and could not
// use (unknown device, unknown message type, bad checksum, undecodable
// bytes), so an owner sees what an unusual tracker sends without a packet
// capture. The listeners hand every frame to Tap; the inbox keeps only the
// ones with a problem, in bounded rings pruned by age, and a source address
// can put only so many into it per minute: the ports are on the internet.
package inbox

import (
	"bytes"
	"encoding/hex"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
)

// Problems the listeners name in their own words.
const (
	ChecksumMismatch = "checksum mismatch"
	UnknownDevice    = "unknown device"
)

// Seen is one frame a listener read, as the tap is told of it.
type Seen struct {
	Protocol string
	Remote   string // the peer's address (host:port)
	UniqueID string // the device id the frame or its connection carries, if any
	DeviceID int64  // the registered device, 0 when unknown
	Data     []byte // the frame; valid during the call only
	Problem  string // why it was not used; "" for a frame that was
}

// Frame is a kept frame.
type Frame struct {
	Time     time.Time `json:"time"`
	Protocol string    `json:"protocol"`
	Remote   string    `json:"remoteAddress"`
	UniqueID string    `json:"uniqueId,omitempty"`
	DeviceID int64     `json:"deviceId,omitempty"`
	Reason   string    `json:"reason"`
	// Hex is the frame's bytes, the first MaxBytes of them for a longer
	// frame; Length is its whole size.
	Hex    string `json:"hex"`
	Length int    `json:"length"`
}

// Options bound what the inbox holds; zero values take the defaults.
type Options struct {
	PerKey    int           // frames kept per device, per unknown id, per unidentified address (20)
	Keys      int           // devices, unknown ids and addresses kept (1,000)
	Total     int           // frames kept in all (2,000: with MaxBytes, 4 MiB at most)
	MaxBytes  int           // bytes of one frame kept (2,048)
	MaxAge    time.Duration // frames older than this are dropped (7 days)
	PerSource int           // frames one source address may add per minute (30)
}

func (o *Options) defaults() {
	model.SetDefault(&o.PerKey, 20)
	model.SetDefault(&o.Keys, 1000)
	model.SetDefault(&o.Total, 2000)
	model.SetDefault(&o.MaxBytes, 2048)
	model.SetDefault(&o.MaxAge, 7*24*time.Hour)
	model.SetDefault(&o.PerSource, 30)
}

// Inbox is safe for concurrent use.
type Inbox struct {
	opts    Options
	now     func() time.Time
	sources *throttle.Limiter

	mu      sync.Mutex
	rings   map[string]*ring // by key(): device, unknown id or address
	held    int              // frames in all rings
	kept    uint64
	limited uint64
}

type ring struct {
	frames []kept // oldest first, at most PerKey
	last   time.Time
}

// kept is a frame, its bytes (Hex is made when listed) and its place in
// the order of arrival, which orders frames of the same instant.
type kept struct {
	Frame
	data []byte
	seq  uint64
}

// New makes an inbox; now is the clock (time.Now in production).
func New(o Options, now func() time.Time) *Inbox {
	o.defaults()
	return &Inbox{opts: o, now: now, rings: map[string]*ring{},
		sources: throttle.New(throttle.Options{MaxPerIP: o.PerSource, MaxPerAccount: o.PerSource, Window: time.Minute},
			now, &model.Error{Class: model.ClassTooMany, Message: "too many frames from this address"})}
}

// Tap takes one frame from a listener. It is called for every frame, so a
// frame without a problem costs only the check.
func (b *Inbox) Tap(s Seen) {
	if s.Problem == "" {
		return
	}
	if b.sources.Take(hostOf(s.Remote)) != nil {
		b.mu.Lock()
		b.limited++
		b.mu.Unlock()
		return
	}
	data := bytes.Clone(s.Data[:min(len(s.Data), b.opts.MaxBytes)])
	f := Frame{Time: b.now().UTC(), Protocol: s.Protocol, Remote: s.Remote, UniqueID: s.UniqueID,
		DeviceID: s.DeviceID, Reason: s.Problem, Length: len(s.Data)}
	k := key(f)
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.rings[k]
	if r != nil && len(r.frames) >= b.opts.PerKey {
		r.frames = r.frames[1:]
		b.held--
	}
	for b.held >= b.opts.Total {
		b.evictFrame()
	}
	if r = b.rings[k]; r == nil { // new, or emptied by evictFrame
		if len(b.rings) >= b.opts.Keys {
			b.evictRing()
		}
		r = &ring{}
		b.rings[k] = r
	}
	b.kept++
	b.held++
	r.frames = append(r.frames, kept{f, data, b.kept})
	r.last = f.Time
}

// key groups frames: by device when registered, by id when the frame names
// one, else by the sender's address.
func key(f Frame) string {
	switch {
	case f.DeviceID != 0:
		return "d" + itoa(f.DeviceID)
	case f.UniqueID != "":
		return "u" + f.UniqueID
	}
	return "a" + f.Protocol + "\x00" + hostOf(f.Remote)
}

// evictRing drops the ring that has gone longest without a frame.
func (b *Inbox) evictRing() {
	var oldest string
	for k, r := range b.rings {
		if oldest == "" || r.last.Before(b.rings[oldest].last) {
			oldest = k
		}
	}
	b.held -= len(b.rings[oldest].frames)
	delete(b.rings, oldest)
}

// evictFrame drops the oldest frame of all.
func (b *Inbox) evictFrame() {
	var oldest string
	for k, r := range b.rings {
		if len(r.frames) > 0 && (oldest == "" || r.frames[0].seq < b.rings[oldest].frames[0].seq) {
			oldest = k
		}
	}
	r := b.rings[oldest]
	if r.frames = r.frames[1:]; len(r.frames) == 0 {
		delete(b.rings, oldest)
	}
	b.held--
}

// Filter selects frames; zero fields select all.
type Filter struct {
	DeviceID int64
	UniqueID string
	Protocol string
	// Unregistered selects the frames of no registered device.
	Unregistered bool
	Limit        int // newest first; 0 is no limit
}

// Frames lists kept frames, newest first; administrators only (a frame of
// an unknown device may belong to anybody).
func (b *Inbox) Frames(actor *model.User, f Filter) ([]Frame, error) {
	if !actor.Administrator {
		return nil, model.Forbidden("Only administrators may read the raw frames")
	}
	return b.list(f), nil
}

// ForUnknown lists the kept frames of an unknown id, newest first, for the
// unknown-device list.
func (b *Inbox) ForUnknown(uniqueID string, limit int) []Frame {
	return b.list(Filter{UniqueID: uniqueID, Unregistered: true, Limit: limit})
}

func (b *Inbox) list(f Filter) []Frame {
	cutoff := b.now().Add(-b.opts.MaxAge)
	b.mu.Lock()
	var all []kept
	for k, r := range b.rings {
		b.prune(k, r, cutoff)
		for _, fr := range r.frames {
			if f.DeviceID != 0 && fr.DeviceID != f.DeviceID || f.UniqueID != "" && fr.UniqueID != f.UniqueID ||
				f.Protocol != "" && fr.Protocol != f.Protocol || f.Unregistered && fr.DeviceID != 0 {
				continue
			}
			all = append(all, fr)
		}
	}
	b.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].seq > all[j].seq })
	if f.Limit > 0 && len(all) > f.Limit {
		all = all[:f.Limit]
	}
	out := make([]Frame, len(all))
	for i, k := range all {
		out[i] = k.Frame
		out[i].Hex = hex.EncodeToString(k.data)
	}
	return out
}

// prune drops a ring's frames older than cutoff, and the ring when none
// is left. Called with b.mu held.
func (b *Inbox) prune(k string, r *ring, cutoff time.Time) {
	i := 0
	for i < len(r.frames) && r.frames[i].Time.Before(cutoff) {
		i++
	}
	r.frames = r.frames[i:]
	b.held -= i
	if len(r.frames) == 0 {
		delete(b.rings, k)
	}
}

// Forget drops a device's frames (the device was deleted) or an unknown
// id's (it was registered).
func (b *Inbox) Forget(deviceID int64, uniqueID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, k := range []string{"d" + itoa(deviceID), "u" + uniqueID} {
		if r := b.rings[k]; r != nil && k != "d0" && k != "u" {
			b.held -= len(r.frames)
			delete(b.rings, k)
		}
	}
}

// Counts are the inbox's numbers for /metrics: frames kept, and frames
// refused because their source was over its rate.
func (b *Inbox) Counts() (kept, limited uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.kept, b.limited
}

func hostOf(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
