package model

import "time"

// What the accounts' one-time-code flows and maintenance mode keep
// (package accounts has their rules). These records never leave the
// server: they have no JSON of their own, and the store keeps its own
// encoding.

// OTP is one pending one-time code. Only its bcrypt hash is kept: six
// digits are a million guesses, which a plain hash of a copied database
// would give away in a second.
type OTP struct {
	Base
	// Key binds the code to its purpose and subject: one pending code per
	// key.
	Key        string
	Purpose    string
	Identifier string
	UserID     int64
	// Name is the full name given with a demo request.
	Name    string
	Hash    string
	Sent    time.Time
	Expires time.Time
	Tries   int
}

// OTPToken is what a verified OTP turns into: proof that the caller
// controls Identifier, good for one action of Purpose. Key is the
// token's SHA-256, as for sessions.
type OTPToken struct {
	Base
	Key        string
	Purpose    string
	Identifier string
	UserID     int64
	Expires    time.Time
}

// Keyed is a Table whose records each have a unique key: Create and Put
// of a record whose key another holds are ErrConflict.
type Keyed[T any] interface {
	Table[T]
	// ByKey is the record with key (ErrNotFound when none).
	ByKey(key string) (*T, error)
}

// AccountsTx is the accounts' part of a transaction.
type AccountsTx interface {
	// OTPs are keyed by purpose and subject, OTPTokens by the token's hash.
	OTPs() Keyed[OTP]
	OTPTokens() Keyed[OTPToken]
	// DemoUser is the demo account made for a verified phone (ok false
	// when none was recorded); SetDemoUser records it.
	DemoUser(phone string) (userID int64, ok bool, err error)
	SetDemoUser(phone string, userID int64) error
	// Maintenance is the stored maintenance-mode switch (off until set).
	Maintenance() (bool, error)
	SetMaintenance(on bool) error
}
