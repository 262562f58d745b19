package storage

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestSessions(t *testing.T) {
	db := openTestDB(t)
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	sessions := []model.Session{
		{Token: "a-expired", UserID: 1, Created: now.Add(-48 * time.Hour), Expires: now.Add(-time.Hour)},
		{Token: "b-live", UserID: 1, Created: now, Expires: now.Add(time.Hour)},
		{Token: "c-live", UserID: 2, Created: now, Expires: now.Add(time.Hour)},
		{Token: "d-expired", UserID: 2, Created: now, Expires: now.Add(-time.Second)},
		{Token: "e-live", UserID: 3, Created: now, Expires: now.Add(time.Hour)},
	}
	mustUpdate(t, db, func(tx model.Tx) error {
		for i := range sessions {
			if err := tx.PutSession(&sessions[i]); err != nil {
				return err
			}
		}
		return nil
	})
	mustView(t, db, func(tx model.Tx) error {
		s, err := tx.Session("b-live")
		if err != nil || s.UserID != 1 || !s.Expires.Equal(now.Add(time.Hour)) || !s.Created.Equal(now) {
			t.Errorf("Session = %+v, %v", s, err)
		}
		_, err = tx.Session("nope")
		wantKind(t, err, model.ErrNotFound)
		_, err = tx.Session("")
		wantKind(t, err, model.ErrNotFound)
		return nil
	})
	err := db.Update(func(tx model.Tx) error { return tx.PutSession(&model.Session{UserID: 1}) })
	wantKind(t, err, model.ErrInvalid)

	tests := []struct {
		name    string
		userID  int64
		before  time.Time
		deleted int
		left    []string
	}{
		{"nothing expired, no user", 0, time.Time{}, 0, []string{"a-expired", "b-live", "c-live", "d-expired", "e-live"}},
		{"expired only", 0, now, 2, []string{"b-live", "c-live", "e-live"}},
		{"one user's and expired", 1, now, 1, []string{"c-live", "e-live"}},
		{"expire the rest by time", 0, now.Add(2 * time.Hour), 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustUpdate(t, db, func(tx model.Tx) error {
				n, err := tx.DeleteSessions(tt.userID, tt.before)
				if n != tt.deleted {
					t.Errorf("deleted %d, want %d", n, tt.deleted)
				}
				return err
			})
			mustView(t, db, func(tx model.Tx) error {
				var left []string
				for _, s := range sessions {
					if _, err := tx.Session(s.Token); err == nil {
						left = append(left, s.Token)
					}
				}
				if len(left) != len(tt.left) {
					t.Errorf("left %v, want %v", left, tt.left)
				}
				for i := range left {
					if left[i] != tt.left[i] {
						t.Errorf("left %v, want %v", left, tt.left)
						break
					}
				}
				return nil
			})
		})
	}

	mustUpdate(t, db, func(tx model.Tx) error {
		if err := tx.PutSession(&sessions[1]); err != nil {
			return err
		}
		return tx.DeleteSession("b-live")
	})
	mustView(t, db, func(tx model.Tx) error {
		_, err := tx.Session("b-live")
		wantKind(t, err, model.ErrNotFound)
		return nil
	})
}
