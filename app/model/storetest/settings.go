package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func (s *suite) server(t *testing.T) {
	t.Run("Server is ErrNotFound before the first PutServer", func(t *testing.T) {
		st := s.open(t)
		view(t, st, func(tx model.Tx) error {
			srv, err := tx.Server()
			wantIs(t, err, model.ErrNotFound, "Server")
			if srv != nil {
				t.Errorf("Server returned %+v with the error", srv)
			}
			return nil
		})
	})
	t.Run("PutServer stores the whole singleton and overwrites it", func(t *testing.T) {
		st := s.open(t)
		first := &model.Server{Registration: true, Map: "osm", Latitude: 1.5, Zoom: 3, Announcement: "hi",
			Attributes: model.Attributes{"k": "v", "n": 2.0}}
		second := &model.Server{Readonly: true, CoordinateFormat: "dms", Attributes: model.Attributes{}}
		update(t, st, func(tx model.Tx) error {
			if err := tx.PutServer(first); err != nil {
				return err
			}
			got, err := tx.Server()
			if err == nil {
				same(t, "Server in the writing transaction", got, first)
			}
			return err
		})
		view(t, st, func(tx model.Tx) error {
			got, err := tx.Server()
			if err == nil {
				same(t, "Server", got, first)
			}
			return err
		})
		update(t, st, func(tx model.Tx) error { return tx.PutServer(second) })
		view(t, st, func(tx model.Tx) error {
			got, err := tx.Server()
			if err == nil {
				same(t, "Server after a second PutServer", got, second)
			}
			return err
		})
	})
}

func (s *suite) sessions(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	sessions := []model.Session{
		{Token: "a-expired", UserID: 1, Created: now.Add(-48 * time.Hour), Expires: now.Add(-time.Hour)},
		{Token: "b-live", UserID: 1, Created: now, Expires: now.Add(time.Hour)},
		{Token: "c-live", UserID: 2, Created: now, Expires: now.Add(time.Hour)},
		{Token: "d-expired", UserID: 2, Created: now, Expires: now.Add(-time.Second)},
		{Token: "e-live", UserID: 3, Created: now, Expires: now.Add(time.Hour)},
		{Token: "f-expires-now", UserID: 3, Created: now, Expires: now},
	}
	tokens := func() []string {
		var out []string
		for _, s := range sessions {
			out = append(out, s.Token)
		}
		return out
	}()
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			for i := range sessions {
				if err := tx.PutSession(&sessions[i]); err != nil {
					return err
				}
			}
			return nil
		})
		return st
	}
	left := func(t *testing.T, st model.Store) []string {
		var out []string
		view(t, st, func(tx model.Tx) error {
			for _, tok := range tokens {
				_, err := tx.Session(tok)
				switch {
				case err == nil:
					out = append(out, tok)
				case !isNotFound(err):
					t.Errorf("Session(%q): %v", tok, err)
				}
			}
			return nil
		})
		return out
	}

	t.Run("Session returns what PutSession stored", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			for _, want := range sessions {
				got, err := tx.Session(want.Token)
				if err != nil {
					return err
				}
				same(t, "Session("+want.Token+")", got, &want)
			}
			return nil
		})
	})
	t.Run("Session of an unknown token is ErrNotFound", func(t *testing.T) {
		st := setup(t)
		view(t, st, func(tx model.Tx) error {
			for _, tok := range []string{"nope", "b-liv", "b-live ", "B-LIVE", ""} {
				got, err := tx.Session(tok)
				wantIs(t, err, model.ErrNotFound, fmt.Sprintf("Session(%q)", tok))
				if got != nil {
					t.Errorf("Session(%q) returned %+v with the error", tok, got)
				}
			}
			return nil
		})
	})
	t.Run("PutSession of a known token overwrites it", func(t *testing.T) {
		st := setup(t)
		changed := model.Session{Token: "b-live", UserID: 7, Created: now.Add(time.Minute), Expires: now.Add(2 * time.Hour)}
		update(t, st, func(tx model.Tx) error { return tx.PutSession(&changed) })
		view(t, st, func(tx model.Tx) error {
			got, err := tx.Session("b-live")
			if err == nil {
				same(t, "Session after the overwrite", got, &changed)
			}
			return err
		})
		sameStrings(t, "sessions left", left(t, st), tokens)
	})
	t.Run("DeleteSession removes that session only", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			if err := tx.DeleteSession("b-live"); err != nil {
				return err
			}
			_, err := tx.Session("b-live")
			wantIs(t, err, model.ErrNotFound, "Session after DeleteSession, same transaction")
			return nil
		})
		sameStrings(t, "sessions left", left(t, st), slices.DeleteFunc(slices.Clone(tokens), func(s string) bool { return s == "b-live" }))
	})

	for _, c := range []struct {
		name    string
		userID  int64
		before  time.Time
		deleted int
		left    []string
	}{
		{"DeleteSessions(0, zero time) deletes nothing", 0, time.Time{}, 0, tokens},
		{"DeleteSessions(0, now) deletes the sessions expired before now", 0, now, 2,
			[]string{"b-live", "c-live", "e-live", "f-expires-now"}},
		{"DeleteSessions expires strictly before the time", 0, now.Add(-time.Second), 1,
			[]string{"b-live", "c-live", "d-expired", "e-live", "f-expires-now"}},
		{"DeleteSessions(user, zero time) deletes the user's sessions, live or not", 1, time.Time{}, 2,
			[]string{"c-live", "d-expired", "e-live", "f-expires-now"}},
		{"DeleteSessions(user, now) deletes the user's and the expired", 3, now, 4,
			[]string{"b-live", "c-live"}},
		{"DeleteSessions of a user without sessions", 9, time.Time{}, 0, tokens},
		{"DeleteSessions(0, later) deletes everything expired by then", 0, now.Add(2 * time.Hour), 6, nil},
		{"DeleteSessions with a negative user deletes by time only", -1, now, 2,
			[]string{"b-live", "c-live", "e-live", "f-expires-now"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := setup(t)
			update(t, st, func(tx model.Tx) error {
				n, err := tx.DeleteSessions(c.userID, c.before)
				if n != c.deleted {
					t.Errorf("DeleteSessions(%d, %v) = %d, want %d", c.userID, c.before, n, c.deleted)
				}
				return err
			})
			sameStrings(t, "sessions left", left(t, st), c.left)
			// A second call finds nothing more.
			update(t, st, func(tx model.Tx) error {
				n, err := tx.DeleteSessions(c.userID, c.before)
				if n != 0 {
					t.Errorf("repeated DeleteSessions = %d, want 0", n)
				}
				return err
			})
		})
	}
}

func isNotFound(err error) bool { return model.ClassOf(err) == model.ClassNotFound }

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) || !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}
