package storage

import (
	"encoding/json"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func (t *tx) Session(token string) (*model.Session, error) {
	if token == "" {
		return nil, model.NotFound("session")
	}
	s := new(model.Session)
	if err := getJSON(t.btx.Bucket(bucketSessions), []byte(token), s, "session"); err != nil {
		return nil, err
	}
	return s, nil
}

func (t *tx) PutSession(s *model.Session) error {
	if s.Token == "" {
		return model.Invalid("session token is required")
	}
	return putJSON(t.btx.Bucket(bucketSessions), []byte(s.Token), s)
}

func (t *tx) DeleteSession(token string) error {
	if token == "" {
		return nil
	}
	return t.btx.Bucket(bucketSessions).Delete([]byte(token))
}

// DeleteSessions scans every session: sessions are few (one per login) and
// this runs on password changes and periodic cleanup, not per request.
// A session that no longer decodes is deleted too.
func (t *tx) DeleteSessions(userID int64, expiredBefore time.Time) (int, error) {
	b := t.btx.Bucket(bucketSessions)
	var doomed [][]byte
	c := b.Cursor()
	for k, data := c.First(); k != nil; k, data = c.Next() {
		var s model.Session
		if json.Unmarshal(data, &s) != nil ||
			s.Expires.Before(expiredBefore) || (userID > 0 && s.UserID == userID) {
			doomed = append(doomed, append([]byte(nil), k...))
		}
	}
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(doomed), nil
}
