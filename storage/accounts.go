package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// What the accounts keep besides users and sessions: pending one-time
// codes and the tokens verified ones give, each unique by key; the demo
// accounts by phone; the maintenance switch.

type storedOTP struct {
	ID         int64     `json:"id"`
	Key        string    `json:"key"`
	Purpose    string    `json:"purpose"`
	Identifier string    `json:"identifier"`
	UserID     int64     `json:"userId,omitempty"`
	Name       string    `json:"name,omitempty"`
	Hash       string    `json:"hash"`
	Sent       time.Time `json:"sent"`
	Expires    time.Time `json:"expires"`
	Tries      int       `json:"tries"`
}

type storedOTPToken struct {
	ID         int64     `json:"id"`
	Key        string    `json:"key"`
	Purpose    string    `json:"purpose"`
	Identifier string    `json:"identifier"`
	UserID     int64     `json:"userId,omitempty"`
	Expires    time.Time `json:"expires"`
}

// storedServerState is record 1 of serverState.
type storedServerState struct {
	Maintenance bool `json:"maintenance"`
}

const serverStateID = 1

func keyIndex[T any](c *collection, key func(*T) string) *uniqueIndex[T] {
	return &uniqueIndex[T]{bucket: keySetBucket(c.keys[0]), field: "key", value: key,
		normalize: func(s string) string { return s }, required: true}
}

var (
	otpsSpec = storedAs(tableSpec[model.OTP]{bucket: colOTPs.bucket(), what: colOTPs.what,
		index: keyIndex(colOTPs, func(o *model.OTP) string { return o.Key })},
		func(o *model.OTP) storedOTP {
			return storedOTP{ID: o.ID, Key: o.Key, Purpose: o.Purpose, Identifier: o.Identifier, UserID: o.UserID,
				Name: o.Name, Hash: o.Hash, Sent: o.Sent, Expires: o.Expires, Tries: o.Tries}
		},
		func(s *storedOTP) model.OTP {
			return model.OTP{Base: model.Base{ID: s.ID}, Key: s.Key, Purpose: s.Purpose, Identifier: s.Identifier,
				UserID: s.UserID, Name: s.Name, Hash: s.Hash, Sent: s.Sent, Expires: s.Expires, Tries: s.Tries}
		})
	otpTokensSpec = storedAs(tableSpec[model.OTPToken]{bucket: colOTPTokens.bucket(), what: colOTPTokens.what,
		index: keyIndex(colOTPTokens, func(o *model.OTPToken) string { return o.Key })},
		func(o *model.OTPToken) storedOTPToken {
			return storedOTPToken{ID: o.ID, Key: o.Key, Purpose: o.Purpose, Identifier: o.Identifier, UserID: o.UserID, Expires: o.Expires}
		},
		func(s *storedOTPToken) model.OTPToken {
			return model.OTPToken{Base: model.Base{ID: s.ID}, Key: s.Key, Purpose: s.Purpose, Identifier: s.Identifier,
				UserID: s.UserID, Expires: s.Expires}
		})
)

type accountsTx struct{ btx *bolt.Tx }

func (t *tx) Accounts() model.AccountsTx { return accountsTx{t.btx} }

func (a accountsTx) OTPs() model.Keyed[model.OTP] {
	return keyed[model.OTP, *model.OTP]{table[model.OTP, *model.OTP]{&otpsSpec, a.btx}}
}

func (a accountsTx) OTPTokens() model.Keyed[model.OTPToken] {
	return keyed[model.OTPToken, *model.OTPToken]{table[model.OTPToken, *model.OTPToken]{&otpTokensSpec, a.btx}}
}

// keyed is a table with a unique key index, looked up by ByKey.
type keyed[T any, P entity[T]] struct{ table[T, P] }

func (k keyed[T, P]) ByKey(key string) (*T, error) { return k.byIndex(key) }

func (a accountsTx) DemoUser(phone string) (int64, bool, error) {
	v := collectionBucket(a.btx, ksDemoUsers.bucket()).Get([]byte(phone))
	return keyID(v), v != nil, nil
}

func (a accountsTx) SetDemoUser(phone string, userID int64) error {
	if phone == "" {
		return model.Invalid("empty phone")
	}
	return collectionBucket(a.btx, ksDemoUsers.bucket()).Put([]byte(phone), idKey(userID))
}

func (a accountsTx) Maintenance() (bool, error) {
	data := collectionBucket(a.btx, colServerState.bucket()).Get(idKey(serverStateID))
	if data == nil {
		return false, nil
	}
	var s storedServerState
	if err := json.Unmarshal(data, &s); err != nil {
		return false, fmt.Errorf("decode %s: %w", colServerState.what, err)
	}
	return s.Maintenance, nil
}

func (a accountsTx) SetMaintenance(on bool) error {
	data, err := json.Marshal(storedServerState{Maintenance: on})
	if err != nil {
		return err
	}
	return collectionBucket(a.btx, colServerState.bucket()).Put(idKey(serverStateID), data)
}
