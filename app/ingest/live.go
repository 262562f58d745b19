package ingest

import (
	"encoding/hex"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// DeviceConn is a live device connection a listener registers, through
// which commands reach the device.
type DeviceConn interface {
	Protocol() string
	// Send encodes cmd for the device and writes it.
	Send(cmd *model.Command) error
}

// UnknownDevice is a uniqueId that reported without being registered.
type UnknownDevice struct {
	UniqueID  string    `json:"uniqueId"`
	Protocol  string    `json:"protocol"`
	Remote    string    `json:"remoteAddress"`
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	Count     int       `json:"count"`
	// Frames are the id's latest frames, newest first (raw-frame inbox).
	Frames []inbox.Frame `json:"frames"`
}

// unknownFrames is how many of an unknown id's frames its entry shows.
const unknownFrames = 5

// maxUnknown bounds the list so a scan of random ids cannot grow memory.
const maxUnknown = 1000

type unknownList struct {
	mu sync.Mutex
	m  map[string]*UnknownDevice
}

func (l *unknownList) seen(uniqueID, protocol, remote string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.m[uniqueID]
	if u == nil {
		if len(l.m) >= maxUnknown {
			l.evictOldest()
		}
		u = &UnknownDevice{UniqueID: uniqueID, FirstSeen: now}
		l.m[uniqueID] = u
	}
	u.Protocol, u.Remote, u.LastSeen = protocol, remote, now
	u.Count++
}

func (l *unknownList) forget(uniqueID string) {
	l.mu.Lock()
	delete(l.m, uniqueID)
	l.mu.Unlock()
}

func (l *unknownList) evictOldest() {
	var oldest *UnknownDevice
	for _, u := range l.m {
		if oldest == nil || u.LastSeen.Before(oldest.LastSeen) {
			oldest = u
		}
	}
	delete(l.m, oldest.UniqueID)
}

// UnknownDevices lists devices that tried to report without being
// registered, most recent first; administrators only.
func (ig *Service) UnknownDevices(actor *model.User) ([]UnknownDevice, error) {
	if !actor.Administrator {
		return nil, model.Forbidden("Only administrators may list unknown devices")
	}
	ig.unknown.mu.Lock()
	out := make([]UnknownDevice, 0, len(ig.unknown.m))
	for _, u := range ig.unknown.m {
		out = append(out, *u)
	}
	ig.unknown.mu.Unlock()
	for i := range out {
		out[i].Frames = ig.inbox.ForUnknown(out[i].UniqueID, unknownFrames)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastSeen.After(out[j].LastSeen) })
	return out, nil
}

// counters are the ingest's health numbers, exported through Stats.
type counters struct {
	stored, dropped, resent, invalidIDs atomic.Uint64
	// removed counts sanitize's removals by rule (see removedFields).
	removed [len(removedFields)]atomic.Uint64
}

// Stats is a snapshot of the ingest counters.
type Stats struct {
	PositionsStored  uint64 `json:"positionsStored"`
	PositionsDropped uint64 `json:"positionsDropped"`
	// PositionsResent counts positions acknowledged without being stored
	// again: a device resent them after losing the ACK.
	PositionsResent uint64 `json:"positionsResent"`
	// FieldsRemoved counts values removed from stored positions as out of
	// their physical range, by field (every field listed, from 0).
	FieldsRemoved map[string]uint64 `json:"fieldsRemoved"`
	// FramesKept counts frames put in the raw-frame inbox, FramesLimited
	// those refused because their source sent too many.
	FramesKept    uint64 `json:"framesKept"`
	FramesLimited uint64 `json:"framesLimited"`
	// InvalidIDs counts device identifiers refused as malformed.
	InvalidIDs uint64 `json:"invalidIds"`
	// FramesReceived counts the frames devices sent, by protocol.
	FramesReceived map[string]uint64 `json:"framesReceived"`
	Connections    int               `json:"connections"`
	// PasswordChecks counts bcrypt comparisons: one per login attempt
	// whether or not the account exists (a cache hit of a recent correct
	// login costs none). The accounts count them; Core.Stats adds them.
	PasswordChecks uint64 `json:"passwordChecks"`
}

func (ig *Service) Stats() Stats {
	ig.connsMu.Lock()
	n := len(ig.conns)
	ig.connsMu.Unlock()
	removed := make(map[string]uint64, len(removedFields))
	for i, field := range removedFields {
		removed[field] = ig.counters.removed[i].Load()
	}
	kept, limited := ig.inbox.Counts()
	frames := map[string]uint64{}
	ig.frames.Range(func(p, n any) bool { frames[p.(string)] = n.(*atomic.Uint64).Load(); return true })
	return Stats{FramesKept: kept, FramesLimited: limited, PositionsStored: ig.counters.stored.Load(), PositionsDropped: ig.counters.dropped.Load(),
		PositionsResent: ig.counters.resent.Load(), FieldsRemoved: removed, InvalidIDs: ig.counters.invalidIDs.Load(), Connections: n,
		FramesReceived: frames}
}

// Connected registers a device's live connection: the device goes online
// and its queued commands are sent. Both cost store writes, so they run off
// the connection's path and the device gets its login answer at once. The
// returned release, called when the connection ends, takes the device
// offline unless a newer connection of the same device replaced this one.
func (ig *Service) Connected(deviceID int64, conn DeviceConn) (release func()) {
	ig.connsMu.Lock()
	ig.conns[deviceID] = conn
	ig.connsMu.Unlock()
	current := func() bool { return ig.liveConn(deviceID) == conn }
	go func() {
		ig.setStatus(deviceID, model.StatusOnline, current)
		if current() {
			ig.deliverQueued(deviceID, conn)
		}
	}()
	return func() {
		ig.connsMu.Lock()
		current := ig.conns[deviceID] == conn
		if current {
			delete(ig.conns, deviceID)
		}
		ig.connsMu.Unlock()
		if current {
			ig.setStatus(deviceID, model.StatusOffline, nil)
		}
	}
}

func (ig *Service) liveConn(deviceID int64) DeviceConn {
	ig.connsMu.Lock()
	defer ig.connsMu.Unlock()
	return ig.conns[deviceID]
}

var statusEvents = map[string]string{
	model.StatusOnline: model.EventDeviceOnline, model.StatusOffline: model.EventDeviceOffline, model.StatusUnknown: model.EventDeviceUnknown,
}

// setStatus changes a device's status and records the matching event.
// still, when given, is checked inside the transaction: a status decided
// earlier must not overwrite one written since (a connection that closed
// before its "online" was stored).
func (ig *Service) setStatus(deviceID int64, status string, still func() bool) {
	_, err := ig.reviseDevices([]int64{deviceID}, func(tx model.Tx, d, _ *model.Device) (bool, *model.Event, error) {
		if d.Status == status || (still != nil && !still()) {
			return false, nil, nil
		}
		ev, err := changeStatus(tx, d, status, ig.now().UTC())
		return err == nil, ev, err
	})
	ig.statusFails.note(ig.log, ig.now, deviceID, 1, err)
}

// changeStatus sets d's status and stores the matching event; the caller
// puts d in the same transaction.
func changeStatus(tx model.Tx, d *model.Device, status string, at time.Time) (*model.Event, error) {
	d.Status = status
	e := &model.Event{Type: statusEvents[status], EventTime: at, DeviceID: d.ID, Attributes: model.Attributes{}}
	return e, tx.AddEvent(e)
}

// SweepStatus marks devices "unknown" that are online without a live
// connection and have not reported for longer than timeout, or never (a
// crash leaves "online" behind: see RepairDevices). The silence is judged
// again under the devices' ingest locks, on the live lastUpdate (the stored
// one may be a minute behind, devicePersistInterval), so a device that
// reports or connects meanwhile keeps its status.
func (ig *Service) SweepStatus(timeout time.Duration) error {
	cutoff := ig.now().Add(-timeout)
	var connectionless []*model.Device
	err := ig.store.View(func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool {
			if ig.liveConn(d.ID) == nil {
				connectionless = append(connectionless, d)
			}
			return true
		})
	})
	var silent []int64
	for _, d := range connectionless {
		ig.liveDevice(d) // after the read transaction: it takes the ingest lock
		if onlineStale(d, false, cutoff) {
			silent = append(silent, d.ID)
		}
	}
	_, rerr := ig.reviseDevices(silent, func(tx model.Tx, d, cached *model.Device) (bool, *model.Event, error) {
		live := d
		if cached != nil {
			live = cached
		}
		if !onlineStale(live, ig.liveConn(d.ID) != nil, cutoff) {
			return false, nil, nil
		}
		ev, err := changeStatus(tx, d, model.StatusUnknown, ig.now().UTC())
		return err == nil, ev, err
	})
	return model.FirstError(err, rerr)
}

// Tap is the listeners' tap (protocols.Options.Tap): the inbox keeps the
// frames they could not use.
// Tap sees every frame the listeners read: it counts it, keeps the ones
// with a problem in the inbox, and shows it to socket clients that asked
// for logs.
func (ig *Service) Tap(s inbox.Seen) {
	n, ok := ig.frames.Load(s.Protocol)
	if !ok {
		n, _ = ig.frames.LoadOrStore(s.Protocol, new(atomic.Uint64))
	}
	n.(*atomic.Uint64).Add(1)
	ig.inbox.Tap(s)
	ig.hub.Log(s.DeviceID, func() *live.LogRecord {
		return &live.LogRecord{Host: hostOf(s.Remote), Protocol: s.Protocol, UniqueID: s.UniqueID, DeviceID: s.DeviceID,
			Data: hex.EncodeToString(s.Data)}
	})
}

// Frames lists the raw-frame inbox, newest first; administrators only.
func (ig *Service) Frames(actor *model.User, f inbox.Filter) ([]inbox.Frame, error) {
	return ig.inbox.Frames(actor, f)
}

// IgnoreChecksum is the device attribute that makes the listeners accept
// the device's frames whose checksum does not match: some firmware computes
// it wrong. Without it such a frame is neither stored nor answered.
const IgnoreChecksum = "ignoreChecksum"

// ChecksumWaived tells whether d is marked with IgnoreChecksum.
func ChecksumWaived(d *model.Device) bool {
	v := d.Attributes[IgnoreChecksum]
	return v == true || v == "true"
}

// WaiveChecksum marks a device with IgnoreChecksum, as the raw-frame inbox
// offers for a device whose frames fail their checksum; the caller must
// be allowed to edit the device.
func (ig *Service) WaiveChecksum(actor *model.User, deviceID int64) (*model.Device, error) {
	return ig.fleet.Devices.Update(actor, deviceID, func(d *model.Device) error {
		if d.Attributes == nil {
			d.Attributes = model.Attributes{}
		}
		d.Attributes[IgnoreChecksum] = true
		return nil
	})
}
