package traccarimport

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// The history is read device by device in pieces of at most Options.Chunk.
// Each piece is stored in one transaction together with the record that
// its span is done: the key set holds, per fleetd device, the spans of
// positions ("positions/<device>/<start>" -> end) and of events
// ("events/<device>/<start>" -> end) already imported, in Unix
// milliseconds, half-open. A later import reads only what no span covers,
// so an interrupted one resumes where it stopped.

// span is [start, end) in Unix milliseconds.
type span struct{ start, end int64 }

// Span kinds, the first part of their keys.
const (
	spanPositions = "positions"
	spanEvents    = "events"
)

func spanKey(what string, device, start int64) string {
	return fmt.Sprintf("%s/%d/%015d", what, device, start)
}

// loadSpans reads a device's spans of one kind, in order.
func loadSpans(tx model.Tx, what string, device int64) ([]span, error) {
	var out []span
	prefix := fmt.Sprintf("%s/%d/", what, device)
	err := keys(tx).Scan(prefix, func(key string, end int64) bool {
		start, err := strconv.ParseInt(strings.TrimPrefix(key, prefix), 10, 64)
		if err == nil {
			out = append(out, span{start, end})
		}
		return true
	})
	return out, err
}

// gaps are the parts of [s, e) that no span covers.
func gaps(done []span, s, e int64) []span {
	var out []span
	at := s
	for _, d := range done {
		if d.end <= at || d.start >= e {
			continue
		}
		if d.start > at {
			out = append(out, span{at, d.start})
		}
		at = max(at, d.end)
	}
	if at < e {
		out = append(out, span{at, e})
	}
	return out
}

// addSpan merges add into done (ordered, disjoint, not touching): it
// returns the new list, the spans it replaces and the one it adds.
func addSpan(done []span, add span) (out, removed []span, merged span) {
	merged = add
	for _, d := range done {
		if d.end < merged.start || d.start > merged.end {
			out = append(out, d)
			continue
		}
		removed = append(removed, d)
		merged = span{min(merged.start, d.start), max(merged.end, d.end)}
	}
	out = append(out, merged)
	slices.SortFunc(out, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	return out, removed, merged
}

// writeSpan records in tx that add is done, merged with what touches it.
func writeSpan(tx model.Tx, what string, device int64, done []span, add span) ([]span, error) {
	out, removed, merged := addSpan(done, add)
	for _, d := range removed {
		if err := keys(tx).Delete(spanKey(what, device, d.start)); err != nil {
			return nil, err
		}
	}
	return out, keys(tx).Put(spanKey(what, device, merged.start), merged.end)
}

// contains reports whether t lies in one of spans.
func contains(spans []span, t int64) bool {
	return slices.ContainsFunc(spans, func(s span) bool { return s.start <= t && t < s.end })
}

// piece is one read of a device's history: its span and whether it reads
// the positions, the events, or both.
type piece struct {
	span
	positions, events bool
}

// plan cuts what is missing of [s, e) into pieces of at most chunk.
func plan(posGaps, evGaps []span, s, e, chunk int64) []piece {
	cuts := []int64{s, e}
	for _, g := range slices.Concat(posGaps, evGaps) {
		cuts = append(cuts, g.start, g.end)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []piece
	for i := 0; i+1 < len(cuts); i++ {
		a, b := cuts[i], cuts[i+1]
		p, ev := contains(posGaps, a), contains(evGaps, a)
		if !p && !ev {
			continue
		}
		for x := a; x < b; x += chunk {
			out = append(out, piece{span{x, min(x+chunk, b)}, p, ev})
		}
	}
	return out
}

// deviceHistory is one device's import: its ids and the spans done.
type deviceHistory struct {
	traccar    model.Device
	fid        int64
	pos, evs   []span
	pieces     []piece
	settleTime int64 // spans end no later than this (Unix ms)
}

func msTime(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// importHistory reads the positions (and events) of [From, To) that no
// earlier import read, device by device.
func (r *run) importHistory() error {
	h := &History{From: r.o.From, To: r.o.To, Skipped: map[string]int{}}
	r.sum.History = h
	s, e := r.o.From.UnixMilli(), r.o.To.UnixMilli()
	var devices []*deviceHistory
	total := 0
	for _, d := range r.devices {
		fid, ok := r.mapped(model.KindDevice, d.ID)
		if !ok {
			h.Notes = append(h.Notes, describe("device", d.ID, d.Name)+": not imported, so neither is its history")
			continue
		}
		dh := &deviceHistory{traccar: d, fid: fid, settleTime: r.now.Add(-settle).UnixMilli()}
		if err := r.svc.Store.View(func(tx model.Tx) (err error) {
			if dh.pos, err = loadSpans(tx, spanPositions, fid); err == nil {
				dh.evs, err = loadSpans(tx, spanEvents, fid)
			}
			return err
		}); err != nil {
			return err
		}
		posGaps, evGaps := gaps(dh.pos, s, e), []span(nil)
		if r.o.Recheck {
			posGaps = []span{{s, e}}
		}
		if r.o.Events {
			evGaps = gaps(dh.evs, s, e)
			if r.o.Recheck {
				evGaps = []span{{s, e}}
			}
		}
		dh.pieces = plan(posGaps, evGaps, s, e, r.o.Chunk.Milliseconds())
		if len(dh.pieces) > 0 {
			devices = append(devices, dh)
			total += len(dh.pieces)
		}
	}
	done := 0
	for _, dh := range devices {
		h.Devices++
		for _, p := range dh.pieces {
			r.progress("history", done, total)
			if err := r.ctx.Err(); err != nil {
				return err
			}
			if err := r.importPiece(h, dh, p); err != nil {
				return err
			}
			done++
		}
	}
	r.progress("history", total, total)
	return nil
}

// importPiece reads one piece and stores it. Positions come in answers of
// at most MaxPositions: a full answer is stored up to its last fix time
// and the rest read on from there, each answer in its own transaction.
func (r *run) importPiece(h *History, dh *deviceHistory, p piece) error {
	ids := map[int64]int64{} // the piece's positions: Traccar id -> fleetd id
	for cur := p.start; ; {
		var batch []model.Position
		next := p.end
		if p.positions {
			var err error
			if batch, next, err = r.fetchPositions(dh.traccar, cur, p.end); err != nil {
				return err
			}
		}
		final := next == p.end
		var events []model.Event
		var refs map[int64]*model.Position
		if final && p.events {
			var err error
			if events, err = r.fetchEvents(dh.traccar.ID, p.start, p.end); err != nil {
				return err
			}
			if refs, err = r.referenced(dh.traccar.ID, events, ids, batch); err != nil {
				return err
			}
		}
		w := write{dh: dh, from: cur, to: next, positions: p.positions, batch: batch, ids: ids, refs: refs}
		if final && p.events {
			w.events, w.eventSpan, w.eventList = true, p.span, events
		}
		if err := r.commit(h, &w); err != nil {
			return err
		}
		if final {
			return nil
		}
		cur = next
	}
}

// fetchPositions reads a device's positions of [from, to). When the answer
// is full (MaxPositions), it keeps those before the last fix time and
// says to read on from there (next); otherwise next is to.
func (r *run) fetchPositions(d model.Device, from, to int64) (batch []model.Position, next int64, err error) {
	q := url.Values{"deviceId": {strconv.FormatInt(d.ID, 10)}, "from": {apiTime(msTime(from))}, "to": {apiTime(msTime(to))}}
	var list []model.Position
	if err := r.c.get(r.ctx, "positions", q, &list); err != nil {
		return nil, 0, err
	}
	next = to
	if len(list) >= r.o.MaxPositions {
		last := list[len(list)-1].FixTime.UnixMilli()
		if last <= from {
			return nil, 0, fmt.Errorf("Traccar gives at most %d positions an answer, and %s has more than that at %s: "+
				"raise Traccar's report.maxPositions and give it as --max-positions", r.o.MaxPositions,
				describe("device", d.ID, d.Name), apiTime(msTime(from)))
		}
		next = last
	}
	for _, p := range list {
		if t := p.FixTime.UnixMilli(); t >= from && t < next {
			batch = append(batch, p)
		}
	}
	return batch, next, nil
}

// fetchEvents reads a device's events of [from, to).
func (r *run) fetchEvents(device, from, to int64) ([]model.Event, error) {
	q := url.Values{"deviceId": {strconv.FormatInt(device, 10)}, "from": {apiTime(msTime(from))}, "to": {apiTime(msTime(to))}}
	var list []model.Event
	if err := r.c.get(r.ctx, "reports/events", q, &list); err != nil {
		return nil, err
	}
	var out []model.Event
	for _, e := range list {
		if t := e.EventTime.UnixMilli(); t >= from && t < to {
			out = append(out, e)
		}
	}
	return out, nil
}

// idsPerRequest bounds the ids of one GET /api/positions?id=...
const idsPerRequest = 50

// referenced reads the positions events refer to that are not among the
// piece's (known: ids and batch): an event at a piece's edge, or events
// imported after their positions. Positions Traccar cannot give (deleted
// since) are left out; those events get no position.
func (r *run) referenced(device int64, events []model.Event, ids map[int64]int64, batch []model.Position) (map[int64]*model.Position, error) {
	var want []int64
	for _, e := range events {
		if id := e.PositionID; id != 0 && ids[id] == 0 && !slices.ContainsFunc(batch, func(p model.Position) bool { return p.ID == id }) &&
			!slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	out := map[int64]*model.Position{}
	fetch := func(ids []int64) error {
		q := url.Values{}
		for _, id := range ids {
			q.Add("id", strconv.FormatInt(id, 10))
		}
		var list []model.Position
		if err := r.c.get(r.ctx, "positions", q, &list); err != nil {
			return err
		}
		for i := range list {
			if list[i].DeviceID == device {
				out[list[i].ID] = &list[i]
			}
		}
		return nil
	}
	for group := range slices.Chunk(want, idsPerRequest) {
		if err := fetch(group); err != nil {
			if r.ctx.Err() != nil {
				return nil, r.ctx.Err()
			}
			for _, id := range group { // one missing id fails the whole request
				if err := fetch([]int64{id}); err != nil && r.ctx.Err() != nil {
					return nil, r.ctx.Err()
				}
			}
		}
	}
	return out, nil
}

// write is one transaction of history.
type write struct {
	dh        *deviceHistory
	from, to  int64 // the positions' span
	positions bool  // the positions of [from, to) are read
	batch     []model.Position
	// events: the events of eventSpan are read (eventList).
	events    bool
	eventSpan span
	eventList []model.Event
	ids       map[int64]int64 // the piece's positions so far, Traccar id -> fleetd id
	refs      map[int64]*model.Position
}

// posSig and evSig tell a position, an event, fleetd has already: the same
// fix time and place, the same time, type and alarm.
type posSig struct {
	ms       int64
	lat, lon float64
}

type evSig struct {
	ms          int64
	kind, alarm string
}

func sigOf(p *model.Position) posSig { return posSig{p.FixTime.UnixMilli(), p.Latitude, p.Longitude} }

func evSigOf(e *model.Event) evSig {
	alarm, _ := e.Attributes["alarm"].(string)
	return evSig{e.EventTime.UnixMilli(), e.Type, alarm}
}

// commit stores w in one transaction with its spans, and points the
// device at its newest position.
func (r *run) commit(h *History, w *write) error {
	dh := w.dh
	var (
		added, there, evAdded, evThere, noPos int
		skipped                               map[string]int
		newIDs                                map[int64]int64
		pos, evs                              []span
	)
	err := r.svc.Store.Batch(func(tx model.Tx) error { // may run again: it starts afresh
		added, there, evAdded, evThere, noPos = 0, 0, 0, 0, 0
		skipped, newIDs, pos, evs = map[string]int{}, map[int64]int64{}, dh.pos, dh.evs
		if len(w.batch) > 0 {
			have := map[posSig]int64{}
			err := tx.Positions(dh.fid, msTime(w.from), msTime(w.to).Add(-time.Nanosecond), func(p *model.Position) bool {
				have[sigOf(p)] = p.ID
				return true
			})
			if err != nil {
				return err
			}
			for _, tp := range w.batch {
				if id, ok := have[sigOf(&tp)]; ok {
					newIDs[tp.ID] = id
					there++
					continue
				}
				p := tp
				p.ID, p.DeviceID, p.Outdated = 0, dh.fid, false
				p.GeofenceIDs = r.geofenceIDs(tp.GeofenceIDs)
				p.Attributes = orEmpty(p.Attributes)
				if err := tx.AddPosition(&p); refused(err) {
					skipped["position: "+reason(err)]++
					continue
				} else if err != nil {
					return err
				}
				newIDs[tp.ID] = p.ID
				added++
			}
		}
		if len(w.eventList) > 0 {
			have := map[evSig]bool{}
			err := tx.Events(dh.fid, msTime(w.eventSpan.start), msTime(w.eventSpan.end).Add(-time.Nanosecond), func(e *model.Event) bool {
				have[evSigOf(e)] = true
				return true
			})
			if err != nil {
				return err
			}
			for _, te := range w.eventList {
				if have[evSigOf(&te)] {
					evThere++
					continue
				}
				e := te
				e.ID, e.DeviceID = 0, dh.fid
				e.GeofenceID, _ = r.mapped(model.KindGeofence, te.GeofenceID)
				e.MaintenanceID, _ = r.mapped(model.KindMaintenance, te.MaintenanceID)
				e.Attributes = orEmpty(e.Attributes)
				if e.PositionID, err = r.positionOf(tx, dh.fid, te.PositionID, w, newIDs); err != nil {
					return err
				}
				if te.PositionID != 0 && e.PositionID == 0 {
					noPos++
				}
				if err := tx.AddEvent(&e); refused(err) {
					skipped["event: "+reason(err)]++
					continue
				} else if err != nil {
					return err
				}
				evAdded++
			}
		}
		var err error
		if end := min(w.to, dh.settleTime); w.positions && end > w.from {
			if pos, err = writeSpan(tx, spanPositions, dh.fid, pos, span{w.from, end}); err != nil {
				return err
			}
		}
		if end := min(w.eventSpan.end, dh.settleTime); w.events && end > w.eventSpan.start {
			if evs, err = writeSpan(tx, spanEvents, dh.fid, evs, span{w.eventSpan.start, end}); err != nil {
				return err
			}
		}
		if added == 0 {
			return nil
		}
		d, err := tx.Devices().Get(dh.fid)
		if err != nil {
			return err
		}
		if changed, err := fleet.PointAtLatest(tx, d); err != nil || !changed {
			return err
		}
		return tx.Devices().Put(d)
	})
	if err != nil {
		return err
	}
	for tid, fid := range newIDs {
		w.ids[tid] = fid
	}
	dh.pos, dh.evs = pos, evs
	h.Positions += added
	h.PositionsThere += there
	h.Events += evAdded
	h.EventsThere += evThere
	h.EventsWithoutPosition += noPos
	for why, n := range skipped {
		h.Skipped[why] += n
	}
	return nil
}

// positionOf is the fleetd id of Traccar's position tid of an event: one
// of the piece's, or one stored before that is the same fix (time and
// place) as the position Traccar gave for it; 0 if fleetd has none.
func (r *run) positionOf(tx model.Tx, device, tid int64, w *write, newIDs map[int64]int64) (int64, error) {
	if tid == 0 {
		return 0, nil
	}
	if id := newIDs[tid]; id != 0 {
		return id, nil
	}
	if id := w.ids[tid]; id != 0 {
		return id, nil
	}
	tp := w.refs[tid]
	if tp == nil {
		return 0, nil
	}
	var found int64
	err := tx.Positions(device, tp.FixTime, tp.FixTime, func(p *model.Position) bool {
		if p.Latitude == tp.Latitude && p.Longitude == tp.Longitude {
			found = p.ID
			return false
		}
		return true
	})
	return found, err
}

// geofenceIDs rewrites a position's geofences, dropping those not imported.
func (r *run) geofenceIDs(tids []int64) []int64 {
	var out []int64
	for _, tid := range tids {
		if fid, ok := r.mapped(model.KindGeofence, tid); ok {
			out = append(out, fid)
		}
	}
	return out
}
