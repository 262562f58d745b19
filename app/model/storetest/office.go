package storetest

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// groupIDs reads Group(group, q, newestFirst) as ids and the total.
func groupIDs[T any, P interface {
	*T
	model.Entity
}](t *testing.T, f model.Filing[T], group int64, q model.Query, newestFirst bool) ([]int64, int) {
	t.Helper()
	list, total, err := f.Group(group, q, newestFirst)
	if err != nil {
		t.Errorf("Group(%d, %+v, %v): %v", group, q, newestFirst, err)
	}
	ids := []int64{}
	for _, v := range list {
		ids = append(ids, P(v).GetID())
	}
	return ids, total
}

func sameGroup(t *testing.T, what string, ids []int64, total int, want []int64, wantTotal int) {
	t.Helper()
	sameIDs(t, what, ids, want)
	if total != wantTotal {
		t.Errorf("%s: total %d, want %d", what, total, wantTotal)
	}
}

// office checks model.OfficeTx: the filings' groups (owners, or tickets
// for responses), the ticket counter and the seed flag. The Table side of
// each filing runs with the other tables.
func (s *suite) office(t *testing.T) {
	tickets := func(tx model.Tx) model.Filing[model.Ticket] { return tx.Office().Tickets() }
	ticket := func(owner int64) *model.Ticket {
		return &model.Ticket{Title: "t", Stamp: model.Stamp{UserID: model.TextID(owner)}}
	}
	// setup files tickets 1, 3, 4, 6 under owner 1 and 2, 5 under owner 2.
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			for _, owner := range []int64{1, 2, 1, 1, 2, 1} {
				if err := tickets(tx).Create(ticket(owner)); err != nil {
					return err
				}
			}
			return nil
		})
		return st
	}

	t.Run("Group lists a group's records in id order, newest first on request, with the group's total", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			ids, total := groupIDs[model.Ticket](t, tickets(tx), 1, model.Query{}, false)
			sameGroup(t, "owner 1", ids, total, []int64{1, 3, 4, 6}, 4)
			ids, total = groupIDs[model.Ticket](t, tickets(tx), 1, model.Query{}, true)
			sameGroup(t, "owner 1 newest first", ids, total, []int64{6, 4, 3, 1}, 4)
			ids, total = groupIDs[model.Ticket](t, tickets(tx), 2, model.Query{}, false)
			sameGroup(t, "owner 2", ids, total, []int64{2, 5}, 2)
			ids, total = groupIDs[model.Ticket](t, tickets(tx), 3, model.Query{}, false)
			sameGroup(t, "an owner without records", ids, total, []int64{}, 0)
			list, _, err := tickets(tx).Group(1, model.Query{}, false)
			if err == nil && len(list) > 0 {
				want, gerr := tickets(tx).Get(1)
				same(t, "Group's records are the records", list[0], want)
				err = gerr
			}
			return err
		})
	})

	t.Run("Group pages with offset and limit, the total is the group's", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			for _, c := range []struct {
				q           model.Query
				newestFirst bool
				want        []int64
			}{
				{model.Query{Limit: 2}, false, []int64{1, 3}},
				{model.Query{Limit: 2, Offset: 2}, false, []int64{4, 6}},
				{model.Query{Limit: 2, Offset: 1}, true, []int64{4, 3}},
				{model.Query{Offset: 3}, false, []int64{6}},
				{model.Query{Offset: 9, Limit: 2}, false, []int64{}},
			} {
				ids, total := groupIDs[model.Ticket](t, tickets(tx), 1, c.q, c.newestFirst)
				sameGroup(t, fmt.Sprintf("owner 1, %+v, newest first %v", c.q, c.newestFirst), ids, total, c.want, 4)
			}
			return nil
		})
	})

	t.Run("Put files a record under its new group, Delete takes it out", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			moved, err := tickets(tx).Get(3)
			if err != nil {
				return err
			}
			moved.UserID = 2
			if err := tickets(tx).Put(moved); err != nil {
				return err
			}
			ids, total := groupIDs[model.Ticket](t, tickets(tx), 2, model.Query{}, false)
			sameGroup(t, "owner 2 in the moving transaction", ids, total, []int64{2, 3, 5}, 3)
			return tickets(tx).Delete(4)
		})
		view(t, st, func(tx model.Tx) error {
			ids, total := groupIDs[model.Ticket](t, tickets(tx), 1, model.Query{}, false)
			sameGroup(t, "owner 1", ids, total, []int64{1, 6}, 2)
			ids, total = groupIDs[model.Ticket](t, tickets(tx), 2, model.Query{}, false)
			sameGroup(t, "owner 2", ids, total, []int64{2, 3, 5}, 3)
			return nil
		})
	})

	t.Run("responses are grouped by ticket, tasks of owner 0 are a group, kinds are apart", func(t *testing.T) {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			o := tx.Office()
			for _, r := range []*model.TicketResponse{
				{TicketID: 7, Stamp: model.Stamp{UserID: 1}},
				{TicketID: 8, Stamp: model.Stamp{UserID: 1}},
				{TicketID: 7, Stamp: model.Stamp{UserID: 2}},
			} {
				if err := o.TicketResponses().Create(r); err != nil {
					return err
				}
			}
			return firstErr(
				o.ServiceTasks().Create(&model.ServiceTask{Label: "public"}),
				o.ServiceTasks().Create(&model.ServiceTask{Label: "own", Stamp: model.Stamp{UserID: 1}}),
				o.Payments().Create(&model.Payment{Method: "card", Stamp: model.Stamp{UserID: 1}}),
			)
		})
		view(t, st, func(tx model.Tx) error {
			o := tx.Office()
			ids, total := groupIDs[model.TicketResponse](t, o.TicketResponses(), 7, model.Query{}, false)
			sameGroup(t, "responses of ticket 7", ids, total, []int64{1, 3}, 2)
			ids, total = groupIDs[model.TicketResponse](t, o.TicketResponses(), 1, model.Query{}, false)
			sameGroup(t, "responses of ticket 1 (the owner's id)", ids, total, []int64{}, 0)
			ids, total = groupIDs[model.ServiceTask](t, o.ServiceTasks(), 0, model.Query{}, false)
			sameGroup(t, "public tasks", ids, total, []int64{1}, 1)
			ids, total = groupIDs[model.Payment](t, o.Payments(), 1, model.Query{}, false)
			sameGroup(t, "owner 1's payments", ids, total, []int64{1}, 1)
			ids, total = groupIDs[model.Ticket](t, o.Tickets(), 1, model.Query{}, false)
			sameGroup(t, "owner 1's tickets", ids, total, []int64{}, 0)
			return nil
		})
	})

	t.Run("NextTicketNo starts after its argument, goes on by one, and a rollback gives nothing away", func(t *testing.T) {
		st := s.open(t)
		next := func(after int64) (n int64) {
			t.Helper()
			update(t, st, func(tx model.Tx) (err error) { n, err = tx.Office().NextTicketNo(after); return err })
			return n
		}
		if n := next(1000); n != 1001 {
			t.Errorf("first number %d, want 1001", n)
		}
		if n := next(1000); n != 1002 {
			t.Errorf("second number %d, want 1002", n)
		}
		if n := next(5000); n != 1003 {
			t.Errorf("after is only for the first number: got %d, want 1003", n)
		}
		err := st.Update(func(tx model.Tx) error {
			n, err := tx.Office().NextTicketNo(1000)
			if n != 1004 || err != nil {
				t.Errorf("in a transaction to roll back: %d, %v", n, err)
			}
			return errRollback
		})
		wantIs(t, err, errRollback, "Update")
		if n := next(1000); n != 1004 {
			t.Errorf("after a rollback: %d, want 1004", n)
		}
		if r, ok := st.(Reopener); ok {
			st = r.Reopen(t)
			if n := next(1000); n != 1005 {
				t.Errorf("after reopening: %d, want 1005", n)
			}
		}
	})

	t.Run("TasksSeeded is false until SetTasksSeeded", func(t *testing.T) {
		st := s.open(t)
		seeded := func() (ok bool) {
			view(t, st, func(tx model.Tx) (err error) { ok, err = tx.Office().TasksSeeded(); return err })
			return ok
		}
		if seeded() {
			t.Error("a new store is seeded")
		}
		update(t, st, func(tx model.Tx) error { return tx.Office().SetTasksSeeded() })
		update(t, st, func(tx model.Tx) error { return tx.Office().SetTasksSeeded() })
		if !seeded() {
			t.Error("not seeded after SetTasksSeeded")
		}
	})
}
