package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// meanwhile is how long a check waits for another goroutine's transaction
// that the contract says must not wait for the checking one.
const meanwhile = 5 * time.Second

// makeRoom writes about 2 MB and deletes it again, so the store has free
// space when a check needs a writer to commit while a reader is open. A
// store that maps its file into memory (bbolt) cannot grow the mapping
// under an open reader, so there its writers wait for the reader whenever
// the file must grow: a known limit of such a store, not what these checks
// are about. A store in service has such room; a fresh one does not.
func makeRoom(t *testing.T, st model.Store) {
	t.Helper()
	const name = "storetest_room"
	chunk := bytes.Repeat([]byte("r"), 8<<10)
	update(t, st, func(tx model.Tx) error {
		for id := int64(1); id <= 256; id++ {
			if err := tx.Records(name).Put(id, chunk); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, st, func(tx model.Tx) error {
		for id := int64(1); id <= 256; id++ {
			if _, err := tx.Records(name).Delete(id); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *suite) update(t *testing.T) {
	for _, w := range writes() {
		t.Run("an error from fn rolls back "+w.name, func(t *testing.T) {
			st := s.open(t)
			seed(t, st)
			before := state(t, st)
			err := st.Update(func(tx model.Tx) error {
				if err := w.op(tx); err != nil {
					t.Errorf("the write failed: %v", err)
				}
				return fmt.Errorf("wrapped: %w", errRollback)
			})
			wantIs(t, err, errRollback, "Update")
			diffState(t, "a rolled-back "+w.name, state(t, st), before)
		})
	}
	t.Run("an error from fn rolls back every write of the transaction", func(t *testing.T) {
		st := s.open(t)
		seed(t, st)
		before := state(t, st)
		err := st.Update(func(tx model.Tx) error {
			for _, w := range writes() {
				if w.name == "Users.Put" || w.name == "Devices.Put" { // would take what Create took
					continue
				}
				if err := w.op(tx); err != nil {
					t.Errorf("%s failed: %v", w.name, err)
				}
			}
			return errRollback
		})
		wantIs(t, err, errRollback, "Update")
		diffState(t, "a rolled-back transaction", state(t, st), before)
	})
	t.Run("ids given in a rolled-back transaction are not those of committed records", func(t *testing.T) {
		st := s.open(t)
		seed(t, st)
		err := st.Update(func(tx model.Tx) error {
			return firstErr(tx.Users().Create(&model.User{Email: "new@example.com"}), tx.AddPosition(&model.Position{DeviceID: 1, FixTime: at(9)}), errRollback)
		})
		wantIs(t, err, errRollback, "Update")
		u := &model.User{Email: "new@example.com"}
		p := &model.Position{DeviceID: 1, FixTime: at(9)}
		update(t, st, func(tx model.Tx) error { return firstErr(tx.Users().Create(u), tx.AddPosition(p)) })
		if u.ID <= 2 || p.ID <= 3 {
			t.Errorf("ids after a rollback: user %d, position %d; want above 2 and 3", u.ID, p.ID)
		}
		view(t, st, func(tx model.Tx) error {
			sameIDs(t, "users", tableIDs(t, tx.Users()), []int64{1, 2, u.ID})
			sameIDs(t, "device 1's positions", positionIDs(t, tx, 1, beginning, end), []int64{1, 2, p.ID})
			return nil
		})
	})
	t.Run("concurrent Updates lose no read-modify-write", func(t *testing.T) {
		st := s.open(t)
		runCounters(t, st, 8, 10, func(int) func(func(model.Tx) error) error { return st.Update })
	})
}

func tableIDs[T any](t *testing.T, tbl model.Table[T]) []int64 {
	t.Helper()
	var ids []int64
	err := tbl.List(func(v *T) bool { ids = append(ids, any(v).(model.Entity).GetID()); return true })
	if err != nil {
		t.Errorf("List: %v", err)
	}
	return ids
}

// runCounters has workers goroutines each add 1 to a counter record n
// times, reading it and writing it back in one transaction through
// via(worker), and checks nothing was lost.
func runCounters(t *testing.T, st model.Store, workers, n int, via func(worker int) func(func(model.Tx) error) error) {
	t.Helper()
	const name = "storetest_counter"
	update(t, st, func(tx model.Tx) error { return tx.Records(name).Put(1, []byte("0")) })
	var wg sync.WaitGroup
	for w := range workers {
		run := via(w)
		wg.Go(func() {
			for range n {
				err := run(func(tx model.Tx) error {
					data, _, err := tx.Records(name).Get(1)
					if err != nil {
						return err
					}
					v, err := strconv.Atoi(string(data))
					if err != nil {
						return err
					}
					return tx.Records(name).Put(1, []byte(strconv.Itoa(v+1)))
				})
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	view(t, st, func(tx model.Tx) error {
		data, _, err := tx.Records(name).Get(1)
		if want := strconv.Itoa(workers * n); string(data) != want {
			t.Errorf("counter = %s, want %s", data, want)
		}
		return err
	})
}

func (s *suite) view(t *testing.T) {
	t.Run("fn's error is View's", func(t *testing.T) {
		st := s.open(t)
		err := st.View(func(model.Tx) error { return fmt.Errorf("wrapped: %w", errRollback) })
		wantIs(t, err, errRollback, "View")
	})
	for _, w := range writes() {
		t.Run(w.name+" in View fails and changes nothing", func(t *testing.T) {
			st := s.open(t)
			seed(t, st)
			before := state(t, st)
			var opErr error
			viewErr := st.View(func(tx model.Tx) error {
				opErr = protect(func() error { return w.op(tx) })
				return nil
			})
			switch {
			case isPanic(opErr):
				t.Errorf("the write panicked instead of failing: %v", opErr)
			case opErr == nil && viewErr == nil:
				t.Error("the write and View succeeded")
			}
			diffState(t, w.name+" in View", state(t, st), before)
		})
	}
	t.Run("View reads a snapshot: what commits meanwhile is not seen", func(t *testing.T) {
		st := s.open(t)
		seed(t, st)
		makeRoom(t, st)
		read := func(tx model.Tx) string {
			n, err := tx.Users().Count()
			u, uerr := tx.Users().Get(1)
			ids, lerr := tx.Linked(model.KindUser, 1, model.KindDevice)
			var name string
			if u != nil {
				name = u.Name
			}
			return fmt.Sprint(n, err, name, uerr, sorted(ids), lerr, positionIDs(t, tx, 1, beginning, end))
		}
		var first, second string
		committed := false
		view(t, st, func(tx model.Tx) error {
			first = read(tx)
			done := make(chan error, 1)
			go func() {
				done <- st.Update(func(tx model.Tx) error {
					return firstErr(tx.Users().Create(&model.User{Email: "new@example.com"}),
						tx.Users().Put(&model.User{Base: model.Base{ID: 1}, Name: "renamed", Email: "ann@example.com"}),
						tx.Link(perm(model.KindUser, 1, model.KindDevice, 2)),
						tx.AddPosition(&model.Position{DeviceID: 1, FixTime: at(3)}))
				})
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("concurrent Update: %v", err)
				}
				committed = true
			case <-time.After(meanwhile):
				t.Log("the Update waited for the View to end")
			}
			second = read(tx)
			return nil
		})
		if second != first {
			t.Errorf("a View read %q, then %q after an Update committed", first, second)
		}
		if !committed {
			return
		}
		view(t, st, func(tx model.Tx) error {
			if now := read(tx); now == first {
				t.Errorf("a View after the Update still reads %q", now)
			}
			return nil
		})
	})
}

func (s *suite) batch(t *testing.T) {
	t.Run("a Batch commits: its writes are seen once it returns", func(t *testing.T) {
		st := s.open(t)
		err := st.Batch(func(tx model.Tx) error {
			return firstErr(tx.Devices().Create(&model.Device{UniqueID: "111"}),
				tx.AddPosition(&model.Position{DeviceID: 1, FixTime: at(1)}),
				tx.Keys("storetest_batch").Put("111", 1))
		})
		if err != nil {
			t.Fatal(err)
		}
		view(t, st, func(tx model.Tx) error {
			d, err := tx.DeviceByUniqueID("111")
			lookedUp(t, "DeviceByUniqueID", d, err, 1)
			if got := latestID(t, tx, 1); got != 1 {
				t.Errorf("LatestPosition = %d, want 1", got)
			}
			if id, ok, err := tx.Keys("storetest_batch").Get("111"); id != 1 || !ok || err != nil {
				t.Errorf("key = %d, %v, %v", id, ok, err)
			}
			return nil
		})
	})
	for _, w := range writes() {
		t.Run("an error from fn rolls back "+w.name, func(t *testing.T) {
			st := s.open(t)
			seed(t, st)
			before := state(t, st)
			err := st.Batch(func(tx model.Tx) error {
				if err := w.op(tx); err != nil {
					return fmt.Errorf("the write failed: %v", err)
				}
				return fmt.Errorf("wrapped: %w", errRollback)
			})
			wantIs(t, err, errRollback, "Batch")
			diffState(t, "a failed Batch with "+w.name, state(t, st), before)
		})
	}
	t.Run("concurrent callers: each is committed once when it returns; a failing one leaves nothing", func(t *testing.T) {
		st := s.open(t)
		const n = 60
		failing := func(i int) bool { return i%10 == 3 }
		errFail := errors.New("storetest: this caller fails")
		update(t, st, func(tx model.Tx) error { return tx.Records("storetest_counter").Put(1, []byte("0")) })
		var runs atomic.Int64
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				uid := fmt.Sprint("dev-", i)
				err := st.Batch(func(tx model.Tx) error {
					runs.Add(1)
					d := &model.Device{UniqueID: uid}
					if err := tx.Devices().Create(d); err != nil {
						return err
					}
					if err := tx.AddPosition(&model.Position{DeviceID: d.ID, FixTime: at(i)}); err != nil {
						return err
					}
					data, _, err := tx.Records("storetest_counter").Get(1)
					if err != nil {
						return err
					}
					c, _ := strconv.Atoi(string(data))
					if err := tx.Records("storetest_counter").Put(1, []byte(strconv.Itoa(c+1))); err != nil {
						return err
					}
					if failing(i) {
						return fmt.Errorf("caller %d: %w", i, errFail)
					}
					return nil
				})
				if failing(i) {
					wantIs(t, err, errFail, fmt.Sprint("caller ", i))
				} else if err != nil {
					t.Errorf("caller %d: %v", i, err)
				}
				// Committed when Batch returns: seen by the next View.
				err = st.View(func(tx model.Tx) error {
					d, err := tx.DeviceByUniqueID(uid)
					if failing(i) {
						wantIs(t, err, model.ErrNotFound, "the failing caller's device")
						return nil
					}
					if err != nil {
						return fmt.Errorf("caller %d's device after Batch returned: %w", i, err)
					}
					var fixes []time.Time
					err = tx.Positions(d.ID, beginning, end, func(p *model.Position) bool { fixes = append(fixes, p.FixTime); return true })
					if len(fixes) != 1 || !fixes[0].Equal(at(i)) {
						t.Errorf("caller %d's device has positions %v, want one at %v", i, fixes, at(i))
					}
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		view(t, st, func(tx model.Tx) error {
			if c, err := tx.Devices().Count(); c != n-n/10 || err != nil {
				t.Errorf("devices = %d, %v; want %d", c, err, n-n/10)
			}
			data, _, err := tx.Records("storetest_counter").Get(1)
			if want := strconv.Itoa(n - n/10); string(data) != want {
				t.Errorf("counter = %s, want %s: a run of fn was kept twice or lost", data, want)
			}
			return err
		})
		t.Logf("%d calls ran fn %d times", n, runs.Load())
	})
	t.Run("concurrent Batch and Update callers lose no read-modify-write", func(t *testing.T) {
		st := s.open(t)
		runCounters(t, st, 8, 10, func(w int) func(func(model.Tx) error) error {
			if w%2 == 0 {
				return st.Batch
			}
			return st.Update
		})
	})
}

func (s *suite) durability(t *testing.T) {
	reopener := func(t *testing.T, st model.Store) Reopener {
		r, ok := st.(Reopener)
		if !ok {
			t.Skip("the store does not implement storetest.Reopener")
		}
		return r
	}
	t.Run("what Update and concurrent Batch callers committed survives Close", func(t *testing.T) {
		st := s.open(t)
		r := reopener(t, st)
		seed(t, st)
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				err := st.Batch(func(tx model.Tx) error {
					return tx.Devices().Create(&model.Device{UniqueID: fmt.Sprint("batch-", i)})
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		before := state(t, st)
		var uids []string
		view(t, st, func(tx model.Tx) error {
			return tx.Devices().List(func(d *model.Device) bool { uids = append(uids, d.UniqueID); return true })
		})
		st = r.Reopen(t)
		diffState(t, "Close and open", state(t, st), before)
		var after []string
		view(t, st, func(tx model.Tx) error {
			return tx.Devices().List(func(d *model.Device) bool { after = append(after, d.UniqueID); return true })
		})
		if len(after) != 22 {
			t.Errorf("%d devices after reopening, want 22", len(after))
		}
		sameStrings(t, "devices after reopening", after, uids)
	})
	t.Run("ids are not reused after Close", func(t *testing.T) {
		st := s.open(t)
		r := reopener(t, st)
		seed(t, st)
		// Delete the newest of each: user 2, record 2, position 3, event 2.
		update(t, st, func(tx model.Tx) error {
			_, rerr := tx.Records(seedRecords).Delete(2)
			_, perr := tx.DeletePositions(2, beginning, end, 10)
			_, eerr := tx.DeleteEvents(2, 10)
			return firstErr(tx.Users().Delete(2), rerr, perr, eerr)
		})
		st = r.Reopen(t)
		update(t, st, func(tx model.Tx) error {
			u := &model.User{Email: "new@example.com"}
			p := &model.Position{DeviceID: 1, FixTime: at(9)}
			e := &model.Event{DeviceID: 1, EventTime: at(9)}
			id, err := tx.Records(seedRecords).NextID()
			if err := firstErr(err, tx.Users().Create(u), tx.AddPosition(p), tx.AddEvent(e)); err != nil {
				return err
			}
			if u.ID != 3 || p.ID != 4 || e.ID != 3 || id != 3 {
				t.Errorf("ids after reopening: user %d, position %d, event %d, record %d; want 3, 4, 3, 3", u.ID, p.ID, e.ID, id)
			}
			return nil
		})
	})
}

func (s *suite) backup(t *testing.T) {
	t.Run("Backup says how many bytes it wrote", func(t *testing.T) {
		st := s.open(t)
		seed(t, st)
		var buf bytes.Buffer
		n, err := st.Backup(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if n <= 0 || n != int64(buf.Len()) {
			t.Errorf("Backup = %d, wrote %d bytes", n, buf.Len())
		}
	})
	t.Run("the copy holds everything committed", func(t *testing.T) {
		st := s.open(t)
		opener, ok := st.(BackupOpener)
		if !ok {
			t.Skip("the store does not implement storetest.BackupOpener")
		}
		seed(t, st)
		update(t, st, func(tx model.Tx) error { return tx.Users().Delete(2) })
		want := state(t, st)
		var buf bytes.Buffer
		if _, err := st.Backup(&buf); err != nil {
			t.Fatal(err)
		}
		// Later writes are not in the copy.
		update(t, st, func(tx model.Tx) error { return tx.Groups().Create(&model.Group{Name: "later"}) })
		cp := opener.OpenBackup(t, buf.Bytes())
		diffState(t, "Backup", state(t, cp), want)
		// The copy is a store of its own: its ids go on where the original's were.
		update(t, cp, func(tx model.Tx) error {
			u := &model.User{Email: "bob@example.com"}
			if err := tx.Users().Create(u); err != nil {
				return err
			}
			if u.ID != 3 {
				t.Errorf("id of a user created in the copy = %d, want 3", u.ID)
			}
			return nil
		})
	})
	t.Run("a copy taken while writers go on is consistent", func(t *testing.T) {
		st := s.open(t)
		seed(t, st)
		makeRoom(t, st)
		// Each write adds a group, a geofence and a key together.
		var committed atomic.Int64
		write := func() error {
			return st.Update(func(tx model.Tx) error {
				g := &model.Group{Name: "g"}
				if err := firstErr(tx.Groups().Create(g), tx.Geofences().Create(&model.Geofence{Name: "f"})); err != nil {
					return err
				}
				return tx.Keys("storetest_backup").Put(fmt.Sprint("g", g.ID), g.ID)
			})
		}
		for range 5 {
			if err := write(); err != nil {
				t.Fatal(err)
			}
			committed.Add(1)
		}
		stop, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := write(); err != nil {
					t.Error(err)
					return
				}
				committed.Add(1)
			}
		}()
		atStart := committed.Load()
		w := &slowWriter{wait: func() bool {
			deadline := time.Now().Add(meanwhile)
			for committed.Load() < atStart+3 {
				if time.Now().After(deadline) {
					return false
				}
				time.Sleep(time.Millisecond)
			}
			return true
		}}
		n, err := st.Backup(w)
		close(stop)
		<-stopped
		if err != nil {
			t.Fatal(err)
		}
		if !w.wentOn {
			t.Errorf("writers did not go on during Backup: %d commits in %v", committed.Load()-atStart, meanwhile)
		}
		if n != int64(w.buf.Len()) {
			t.Errorf("Backup = %d, wrote %d bytes", n, w.buf.Len())
		}
		opener, ok := st.(BackupOpener)
		if !ok {
			t.Skip("the store does not implement storetest.BackupOpener")
		}
		cp := opener.OpenBackup(t, w.buf.Bytes())
		view(t, cp, func(tx model.Tx) error {
			groups, err := tx.Groups().Count()
			fences, ferr := tx.Geofences().Count()
			keys := 0
			kerr := tx.Keys("storetest_backup").Scan("", func(string, int64) bool { keys++; return true })
			if err := firstErr(err, ferr, kerr); err != nil {
				return err
			}
			// The seed has one group and one geofence.
			if groups != fences || groups != keys+1 {
				t.Errorf("the copy has %d groups, %d geofences, %d keys: a transaction is in part", groups, fences, keys)
			}
			if int64(keys) < atStart {
				t.Errorf("the copy has %d writes, %d were committed before Backup", keys, atStart)
			}
			return nil
		})
		diffState(t, "Backup (seed part)", seedPart(t, cp), seedPart(t, st))
	})
}

// slowWriter collects a backup, holding its first Write until wait says
// other writers went on (or gave up).
type slowWriter struct {
	buf    bytes.Buffer
	wait   func() bool
	waited bool
	wentOn bool
}

func (w *slowWriter) Write(p []byte) (int, error) {
	if !w.waited {
		w.waited = true
		w.wentOn = w.wait()
	}
	return w.buf.Write(p)
}

// seedPart is the state of what the seed wrote and the backup writers do
// not touch.
func seedPart(t *testing.T, st model.Store) string {
	t.Helper()
	var out bytes.Buffer
	view(t, st, func(tx model.Tx) error {
		for _, id := range []int64{1, 2} {
			u, err := tx.Users().Get(id)
			fmt.Fprintln(&out, show(u), err)
			d, err := tx.Devices().Get(id)
			fmt.Fprintln(&out, show(d), err)
		}
		fmt.Fprintln(&out, positionIDs(t, tx, 1, beginning, end), positionIDs(t, tx, 2, beginning, end))
		ids, err := tx.Linked(model.KindUser, 1, model.KindDevice)
		fmt.Fprintln(&out, sorted(ids), err)
		return nil
	})
	return out.String()
}
