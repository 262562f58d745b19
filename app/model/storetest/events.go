package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func addEvents(t *testing.T, st model.Store, events []model.Event) []int64 {
	t.Helper()
	var ids []int64
	update(t, st, func(tx model.Tx) error {
		for i := range events {
			e := events[i]
			if err := tx.AddEvent(&e); err != nil {
				return err
			}
			ids = append(ids, e.ID)
		}
		return nil
	})
	return ids
}

// eventIDs lists the ids Events (or EventsNewest) gives, up to n.
func eventIDs(t *testing.T, tx model.Tx, newest bool, device int64, from, to time.Time, n int) []int64 {
	t.Helper()
	scan, name := tx.Events, "Events"
	if newest {
		scan, name = tx.EventsNewest, "EventsNewest"
	}
	var ids []int64
	err := scan(device, from, to, func(e *model.Event) bool {
		if e.DeviceID != device {
			t.Errorf("%s of device %d gave event %d of device %d", name, device, e.ID, e.DeviceID)
		}
		ids = append(ids, e.ID)
		return len(ids) < n
	})
	if err != nil {
		t.Errorf("%s(%d): %v", name, device, err)
	}
	return ids
}

// eventFixes: device 1's order is 3, 1, 5, 4.
func eventFixes() []model.Event {
	return []model.Event{
		{DeviceID: 1, EventTime: at(10), Type: "deviceOnline"},  // 1
		{DeviceID: 2, EventTime: at(10), Type: "deviceOnline"},  // 2
		{DeviceID: 1, EventTime: at(5), Type: "ignitionOn"},     // 3: a late event
		{DeviceID: 1, EventTime: at(30), Type: "deviceOffline"}, // 4
		{DeviceID: 1, EventTime: at(10), Type: "alarm"},         // 5: the time of 1
		{DeviceID: 256, EventTime: at(0), Type: "alarm"},        // 6
	}
}

func (s *suite) events(t *testing.T) {
	t.Run("AddEvent assigns ids in the order stored", func(t *testing.T) {
		st := s.open(t)
		sameIDs(t, "ids", addEvents(t, st, eventFixes()), []int64{1, 2, 3, 4, 5, 6})
	})
	t.Run("Event returns what AddEvent stored", func(t *testing.T) {
		st := s.open(t)
		full := model.Event{DeviceID: 1, Type: "geofenceEnter", EventTime: at(3).Add(5 * time.Millisecond), PositionID: 7,
			GeofenceID: 2, MaintenanceID: 4, Attributes: model.Attributes{"speed": 12.5, "alarm": "sos"}}
		bare := model.Event{DeviceID: 2, EventTime: at(1)}
		var stored []model.Event
		update(t, st, func(tx model.Tx) error {
			for _, e := range []model.Event{full, bare} {
				if err := tx.AddEvent(&e); err != nil {
					return err
				}
				stored = append(stored, e)
				got, err := tx.Event(e.ID)
				if err != nil {
					return fmt.Errorf("Event in the writing transaction: %w", err)
				}
				same(t, "Event in the writing transaction", got, &e)
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			for _, want := range stored {
				got, err := tx.Event(want.ID)
				if err != nil {
					return err
				}
				same(t, fmt.Sprint("Event(", want.ID, ")"), got, &want)
				for _, newest := range []bool{false, true} {
					var scanned *model.Event
					scan := tx.Events
					if newest {
						scan = tx.EventsNewest
					}
					scan(want.DeviceID, beginning, end, func(e *model.Event) bool { scanned = e; return false })
					same(t, fmt.Sprint("scan (newest first: ", newest, ")"), scanned, &want)
				}
			}
			return nil
		})
	})
	t.Run("Event of a missing id is ErrNotFound", func(t *testing.T) {
		st := s.open(t)
		addEvents(t, st, eventFixes())
		view(t, st, func(tx model.Tx) error {
			for _, id := range []int64{0, -1, 7, 1 << 40} {
				e, err := tx.Event(id)
				wantIs(t, err, model.ErrNotFound, fmt.Sprint("Event(", id, ")"))
				if e != nil {
					t.Errorf("Event(%d) returned %+v with the error", id, e)
				}
			}
			return nil
		})
	})
	for _, r := range []struct {
		name     string
		device   int64
		from, to time.Time
		want     []int64 // oldest first
	}{
		{"all of a device in eventTime order, equal times in id order", 1, beginning, end, []int64{3, 1, 5, 4}},
		{"another device", 2, beginning, end, []int64{2}},
		{"a device whose id has a zero byte", 256, beginning, end, []int64{6}},
		{"bounds are inclusive", 1, at(5), at(10), []int64{3, 1, 5}},
		{"a single instant", 1, at(10), at(10), []int64{1, 5}},
		{"a range between events", 1, at(11), at(29), nil},
		{"from after to", 1, at(30), at(5), nil},
		{"a device without events", 3, beginning, end, nil},
		{"device 0", 0, beginning, end, nil},
	} {
		for _, newest := range []bool{false, true} {
			name, want := "Events: "+r.name, r.want
			if newest {
				name, want = "EventsNewest: "+r.name+", reversed", slices.Clone(r.want)
				slices.Reverse(want)
			}
			t.Run(name, func(t *testing.T) {
				st := s.open(t)
				addEvents(t, st, eventFixes())
				view(t, st, func(tx model.Tx) error {
					sameIDs(t, "ids", eventIDs(t, tx, newest, r.device, r.from, r.to, 1<<30), want)
					return nil
				})
			})
		}
	}
	t.Run("Events and EventsNewest stop when fn returns false", func(t *testing.T) {
		st := s.open(t)
		addEvents(t, st, eventFixes())
		view(t, st, func(tx model.Tx) error {
			for n := 1; n <= 4; n++ {
				sameIDs(t, fmt.Sprint("Events stopping after ", n), eventIDs(t, tx, false, 1, beginning, end, n), []int64{3, 1, 5, 4}[:n])
				sameIDs(t, fmt.Sprint("EventsNewest stopping after ", n), eventIDs(t, tx, true, 1, beginning, end, n), []int64{4, 5, 1, 3}[:n])
			}
			return nil
		})
	})
	t.Run("EventsNewest is Events reversed over many events", func(t *testing.T) {
		st := s.open(t)
		addEvents(t, st, manyEvents())
		view(t, st, func(tx model.Tx) error {
			for _, r := range []struct {
				device   int64
				from, to time.Time
			}{
				{1, beginning, end}, {2, beginning, end}, {3, beginning, end},
				{2, at(10), at(50)}, {3, at(20), at(20)}, {1, beginning, at(-1)}, {3, at(101), end},
				{1, at(50), at(10)}, {4, beginning, end}, {0, beginning, end},
			} {
				want := eventIDs(t, tx, false, r.device, r.from, r.to, 1<<30)
				slices.Reverse(want)
				what := fmt.Sprintf("EventsNewest(%d, %v, %v)", r.device, r.from, r.to)
				sameIDs(t, what, eventIDs(t, tx, true, r.device, r.from, r.to, 1<<30), want)
				if len(want) > 5 {
					sameIDs(t, what+" stopping after 5", eventIDs(t, tx, true, r.device, r.from, r.to, 5), want[:5])
				}
			}
			return nil
		})
	})
	// A writing transaction that has just deleted the events of one device
	// still reads its neighbours' newest first.
	t.Run("EventsNewest in the transaction that deleted another device's events", func(t *testing.T) {
		st := s.open(t)
		addEvents(t, st, manyEvents())
		var want1 []int64
		view(t, st, func(tx model.Tx) error {
			want1 = eventIDs(t, tx, false, 1, beginning, end, 1<<30)
			slices.Reverse(want1)
			return nil
		})
		update(t, st, func(tx model.Tx) error {
			if n, err := tx.DeleteEvents(2, 1000); n != 300 || err != nil {
				t.Errorf("DeleteEvents(2) = %d, %v; want 300", n, err)
			}
			sameIDs(t, "EventsNewest(1)", eventIDs(t, tx, true, 1, beginning, end, 1<<30), want1)
			sameIDs(t, "EventsNewest(2)", eventIDs(t, tx, true, 2, beginning, end, 1<<30), nil)
			if got := eventIDs(t, tx, true, 3, beginning, end, 1<<30); len(got) != 300 {
				t.Errorf("EventsNewest(3) gave %d events, want 300", len(got))
			}
			e := model.Event{DeviceID: 1, EventTime: at(200)}
			if err := tx.AddEvent(&e); err != nil {
				return err
			}
			sameIDs(t, "EventsNewest(1) after AddEvent", eventIDs(t, tx, true, 1, beginning, end, 2), []int64{e.ID, want1[0]})
			return nil
		})
	})

	events := []model.Event{
		{DeviceID: 1, EventTime: at(10)}, // 1
		{DeviceID: 1, EventTime: at(20)}, // 2
		{DeviceID: 2, EventTime: at(5)},  // 3
		{DeviceID: 1, EventTime: at(5)},  // 4: the oldest of device 1
		{DeviceID: 1, EventTime: at(10)}, // 5: the time of 1
	}
	for _, c := range []struct {
		name    string
		device  int64
		limit   int
		deleted int
		left    []int64 // device 1's, oldest first
	}{
		{"at most limit, oldest first", 1, 1, 1, []int64{1, 5, 2}},
		{"of equal times the first stored first", 1, 2, 2, []int64{5, 2}},
		{"everything", 1, 10, 4, nil},
		{"the limit reached exactly", 1, 4, 4, nil},
		{"limit 0 deletes nothing", 1, 0, 0, []int64{4, 1, 5, 2}},
		{"a device without events", 3, 10, 0, []int64{4, 1, 5, 2}},
	} {
		t.Run("DeleteEvents: "+c.name, func(t *testing.T) {
			st := s.open(t)
			addEvents(t, st, events)
			update(t, st, func(tx model.Tx) error {
				n, err := tx.DeleteEvents(c.device, c.limit)
				if n != c.deleted {
					t.Errorf("DeleteEvents(%d, %d) = %d, want %d", c.device, c.limit, n, c.deleted)
				}
				if err == nil {
					sameIDs(t, "device 1's events in the deleting transaction", eventIDs(t, tx, false, 1, beginning, end, 1<<30), c.left)
				}
				return err
			})
			view(t, st, func(tx model.Tx) error {
				sameIDs(t, "device 1's events", eventIDs(t, tx, false, 1, beginning, end, 1<<30), c.left)
				sameIDs(t, "device 2's events", eventIDs(t, tx, false, 2, beginning, end, 1<<30), []int64{3})
				for id := int64(1); id <= 5; id++ {
					_, err := tx.Event(id)
					if kept := id == 3 || slices.Contains(c.left, id); kept && err != nil {
						t.Errorf("Event(%d): %v", id, err)
					} else if !kept {
						wantIs(t, err, model.ErrNotFound, fmt.Sprint("Event(", id, ") deleted"))
					}
				}
				return nil
			})
			if ids := addEvents(t, st, []model.Event{{DeviceID: 1, EventTime: at(1)}}); ids[0] != 6 {
				t.Errorf("id of the next event = %d, want 6", ids[0])
			}
		})
	}
	t.Run("DeleteEvents in chunks deletes everything", func(t *testing.T) {
		st := s.open(t)
		addEvents(t, st, manyEvents())
		total := 0
		for range 10 {
			var n int
			update(t, st, func(tx model.Tx) (err error) { n, err = tx.DeleteEvents(2, 128); return err })
			if total += n; n < 128 {
				break
			}
		}
		if total != 300 {
			t.Errorf("deleted %d in chunks, want 300", total)
		}
		view(t, st, func(tx model.Tx) error {
			sameIDs(t, "device 2's events", eventIDs(t, tx, false, 2, beginning, end, 1<<30), nil)
			for _, d := range []int64{1, 3} {
				if got := eventIDs(t, tx, false, d, beginning, end, 1<<30); len(got) != 300 {
					t.Errorf("device %d kept %d events, want 300", d, len(got))
				}
			}
			return nil
		})
	})
}

// manyEvents is 900 events of devices 1 to 3, nine to a minute: enough to
// fill several pages of a B-tree, with many equal times.
func manyEvents() []model.Event {
	var out []model.Event
	for i := range 900 {
		out = append(out, model.Event{DeviceID: int64(1 + i%3), EventTime: at(i / 9), Type: "alarm"})
	}
	return out
}
