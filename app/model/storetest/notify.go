package storetest

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// notify checks model.NotifyTx: each user's switches and push tokens,
// and the owner of each token.
func (s *suite) notify(t *testing.T) {
	tok := func(token string, minute int) model.PushToken {
		return model.PushToken{Token: token, Added: at(minute)}
	}
	owner := func(t *testing.T, tx model.Tx, token string, want int64) {
		t.Helper()
		got, ok, err := tx.Notify().PushTokenOwner(token)
		if err != nil || got != want || ok != (want != 0) {
			t.Errorf("PushTokenOwner(%s) = %d, %v, %v; want %d", token, got, ok, err, want)
		}
	}
	tokens := func(t *testing.T, tx model.Tx, user int64, want ...model.PushToken) {
		t.Helper()
		got, err := tx.Notify().PushTokens(user)
		if err != nil {
			t.Errorf("PushTokens(%d): %v", user, err)
		}
		if len(got) != 0 || len(want) != 0 {
			same(t, "PushTokens", got, want)
		}
	}

	t.Run("settings are none until put, then what was put, until deleted", func(t *testing.T) {
		st := s.open(t)
		settings := func(user int64) (m map[string]bool) {
			t.Helper()
			view(t, st, func(tx model.Tx) (err error) { m, err = tx.Notify().NotificationSettings(user); return err })
			return m
		}
		if m := settings(1); len(m) != 0 {
			t.Errorf("before any: %v", m)
		}
		update(t, st, func(tx model.Tx) error {
			return firstErr(tx.Notify().PutNotificationSettings(1, map[string]bool{"ignition": false, "alarm": true}),
				tx.Notify().PutNotificationSettings(2, map[string]bool{"alarm": false}))
		})
		same(t, "user 1", settings(1), map[string]bool{"ignition": false, "alarm": true})
		same(t, "user 2", settings(2), map[string]bool{"alarm": false})
		update(t, st, func(tx model.Tx) error {
			return tx.Notify().PutNotificationSettings(1, map[string]bool{"geofence": true})
		})
		same(t, "user 1 after a second Put", settings(1), map[string]bool{"geofence": true})
		update(t, st, func(tx model.Tx) error { return tx.Notify().DeleteNotificationSettings(1) })
		update(t, st, func(tx model.Tx) error { return tx.Notify().DeleteNotificationSettings(3) })
		if m := settings(1); len(m) != 0 {
			t.Errorf("after Delete: %v", m)
		}
		same(t, "user 2 after deleting user 1's", settings(2), map[string]bool{"alarm": false})
	})

	t.Run("PutPushTokens keeps the list in order and makes the user its tokens' owner", func(t *testing.T) {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			return firstErr(tx.Notify().PutPushTokens(2, []model.PushToken{tok("b", 2), tok("a", 1)}),
				tx.Notify().PutPushTokens(1, []model.PushToken{tok("c", 3)}))
		})
		view(t, st, func(tx model.Tx) error {
			tokens(t, tx, 2, tok("b", 2), tok("a", 1))
			tokens(t, tx, 1, tok("c", 3))
			tokens(t, tx, 3)
			owner(t, tx, "a", 2)
			owner(t, tx, "b", 2)
			owner(t, tx, "c", 1)
			owner(t, tx, "d", 0)
			holders, err := tx.Notify().PushTokenHolders()
			sameIDs(t, "PushTokenHolders", holders, []int64{1, 2})
			return err
		})
	})

	t.Run("a token leaving a list loses its owner unless another user took it", func(t *testing.T) {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			return tx.Notify().PutPushTokens(1, []model.PushToken{tok("a", 1), tok("b", 2), tok("c", 3)})
		})
		update(t, st, func(tx model.Tx) error {
			// "b" moves to user 2 before user 1's list drops it.
			return firstErr(tx.Notify().PutPushTokens(2, []model.PushToken{tok("b", 4)}),
				tx.Notify().PutPushTokens(1, []model.PushToken{tok("c", 3)}))
		})
		view(t, st, func(tx model.Tx) error {
			owner(t, tx, "a", 0)
			owner(t, tx, "b", 2)
			owner(t, tx, "c", 1)
			tokens(t, tx, 1, tok("c", 3))
			return nil
		})
		update(t, st, func(tx model.Tx) error { return tx.Notify().PutPushTokens(1, nil) })
		view(t, st, func(tx model.Tx) error {
			owner(t, tx, "c", 0)
			owner(t, tx, "b", 2)
			tokens(t, tx, 1)
			holders, err := tx.Notify().PushTokenHolders()
			sameIDs(t, "PushTokenHolders after user 1's list emptied", holders, []int64{2})
			return err
		})
	})
}
