package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"golang.org/x/crypto/bcrypt"
)

const defaultBcryptCost = 11

var errBadCredentials = model.Unauthorized("Invalid email or password")

// HashPassword hashes a password for storage.
func (acc *Service) HashPassword(password string) (string, error) {
	if err := limits.Password("password", password); err != nil {
		return "", err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), acc.bcryptCost)
	return string(h), err
}

// Login checks e-mail, password and, for a user with two-factor login,
// the one-time code, for a caller at ip. Failures (wrong codes too) are
// throttled per IP and per account; a locked-out caller gets 429 before
// the password is even looked at.
func (acc *Service) Login(email, password, code, ip string) (*model.User, error) {
	// Credentials no account can have are wrong without a look, and are not
	// counted: the throttle would keep the over-long e-mail in memory.
	if limits.Text("email", email, model.MaxEmail) != nil || limits.Password("password", password) != nil {
		return nil, errBadCredentials
	}
	account := model.NormalizeEmail(email)
	if err := acc.throttle.Check(ip, account); err != nil {
		return nil, err
	}
	var u *model.User
	err := acc.store.View(func(tx model.Tx) (err error) {
		u, err = tx.UserByEmail(account)
		return err
	})
	if err != nil && !errors.Is(err, model.ErrNotFound) {
		return nil, err
	}
	if !acc.verify(account, password, u) { // u is nil for an unknown account
		acc.throttle.Add(ip, account)
		return nil, errBadCredentials
	}
	if err := acc.LoginAllowed(u); err != nil {
		return nil, err
	}
	if err := acc.checkCode(u, code); err != nil {
		if err != ErrCodeRequired {
			acc.throttle.Add(ip, account)
		}
		return nil, err
	}
	acc.throttle.Succeed(account)
	acc.creds.put(account, password, u)
	return u, nil
}

// verify checks the password, skipping bcrypt when these exact credentials
// were verified recently against the same stored hash. For an unknown
// account (u nil) or one without a password it does the same work as for
// a wrong password, so the answer's timing does not tell whether the
// account exists.
func (acc *Service) verify(account, password string, u *model.User) bool {
	if u == nil || u.PasswordHash == "" {
		acc.passwordMatches(acc.decoyHash(), password)
		return false
	}
	if id, hash, ok := acc.creds.get(account, password); ok && id == u.ID && hash == u.PasswordHash {
		return true
	}
	return acc.passwordMatches(u.PasswordHash, password)
}

// passwordMatches runs one bcrypt comparison, counted in Stats.
func (acc *Service) passwordMatches(hash, password string) bool {
	acc.passwordChecks.Add(1)
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

// decoyHash is a hash of a random password at the configured cost, which
// unknown accounts are checked against. It is made on first use so that
// start-up does not pay for it.
func (acc *Service) decoyHash() string {
	acc.decoyOnce.Do(func() {
		buf := make([]byte, 32)
		rand.Read(buf)
		h, err := bcrypt.GenerateFromPassword([]byte(base64.RawStdEncoding.EncodeToString(buf)), acc.bcryptCost)
		if err != nil { // only for an invalid cost, which New has already replaced
			panic(err)
		}
		acc.decoy = string(h)
	})
	return acc.decoy
}

func (acc *Service) LoginAllowed(u *model.User) error {
	if u.Disabled {
		return model.Unauthorized("Account is disabled")
	}
	if u.Expired(acc.now()) {
		return model.Unauthorized("Account has expired")
	}
	return nil
}

// SessionKey is what the store keeps instead of the cookie value, so a
// copied database or backup holds no usable session.
func SessionKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateSession starts a session for u, logging in from address, and
// returns the cookie value; the login goes in the audit log.
func (acc *Service) CreateSession(u *model.User, address string) (token string, expires time.Time, err error) {
	expires = acc.now().UTC().Add(acc.sessionTTL)
	token, err = acc.newSession(u, expires, func(tx model.Tx) error {
		return tx.Audit().Add(&model.AuditEntry{ActionTime: acc.now().UTC(), Address: address, UserID: u.ID,
			ActionType: model.ActionLogin, ObjectType: model.KindUser, ObjectID: u.ID})
	})
	return token, expires, err
}

// newSession stores a session of u until expires, with also in its
// transaction, and returns its token.
func (acc *Service) newSession(u *model.User, expires time.Time, also func(model.Tx) error) (string, error) {
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(buf)
	s := &model.Session{Token: SessionKey(token), UserID: u.ID, Created: acc.now().UTC(), Expires: expires}
	return token, acc.store.Update(func(tx model.Tx) error {
		if err := tx.PutSession(s); err != nil || also == nil {
			return err
		}
		return also(tx)
	})
}

// SessionUser returns the user of a live session.
func (acc *Service) SessionUser(token string) (*model.User, error) {
	if token == "" {
		return nil, model.Unauthorized("Not logged in")
	}
	var u *model.User
	err := acc.store.View(func(tx model.Tx) error {
		s, err := tx.Session(SessionKey(token))
		if err != nil {
			return err
		}
		if acc.now().After(s.Expires) {
			return model.ErrNotFound
		}
		u, err = tx.Users().Get(s.UserID)
		return err
	})
	if errors.Is(err, model.ErrNotFound) {
		return nil, model.Unauthorized("Session expired or not found")
	}
	if err != nil {
		return nil, err
	}
	if err := acc.LoginAllowed(u); err != nil {
		return nil, err
	}
	return u, nil
}

// Logout ends a session; ending an unknown session is not an error.
func (acc *Service) Logout(token string) error {
	return acc.store.Update(func(tx model.Tx) error { return tx.DeleteSession(SessionKey(token)) })
}

// PruneSessions removes expired sessions; run periodically by serve.
func (acc *Service) PruneSessions() (int, error) {
	var n int
	err := acc.store.Update(func(tx model.Tx) (err error) {
		n, err = tx.DeleteSessions(0, acc.now())
		return err
	})
	return n, err
}

// credCache remembers recently verified Basic-auth credentials for a short
// time: Traccar clients send Basic auth on every request, and a bcrypt check
// per request would cost ~100 ms of CPU on a Raspberry Pi. Entries are keyed
// by a hash of e-mail and password and are only honoured while the user's
// stored hash is unchanged.
type credCache struct {
	mu  sync.Mutex
	now func() time.Time
	m   map[[32]byte]credEntry
}

type credEntry struct {
	userID  int64
	hash    string
	expires time.Time
}

const (
	credTTL        = 5 * time.Minute
	credMaxEntries = 10_000
)

func newCredCache(now func() time.Time) *credCache {
	return &credCache{now: now, m: map[[32]byte]credEntry{}}
}

func credKey(account, password string) [32]byte {
	return sha256.Sum256([]byte(account + "\x00" + password))
}

// get returns the user id and password hash verified for these credentials,
// or ok false on a miss.
func (cc *credCache) get(account, password string) (userID int64, hash string, ok bool) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	e, ok := cc.m[credKey(account, password)]
	if !ok || cc.now().After(e.expires) {
		return 0, "", false
	}
	return e.userID, e.hash, true
}

func (cc *credCache) put(account, password string, u *model.User) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.m) >= credMaxEntries {
		clear(cc.m)
	}
	cc.m[credKey(account, password)] = credEntry{userID: u.ID, hash: u.PasswordHash, expires: cc.now().Add(credTTL)}
}
