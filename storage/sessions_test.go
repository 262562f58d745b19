package storage

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestSessionWithoutToken: the contract suite (storetest) covers sessions;
// this backend also refuses one without a token.
func TestSessionWithoutToken(t *testing.T) {
	db := openTestDB(t)
	err := db.Update(func(tx model.Tx) error { return tx.PutSession(&model.Session{UserID: 1}) })
	wantKind(t, err, model.ErrInvalid)
}
