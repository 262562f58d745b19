package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// The stored forms of the office's values, as the office records have
// always been written: ids as decimal strings, dates in RFC 3339 (UTC,
// whole seconds), null for none.

// storedID is an id written as a decimal string, null for 0.
type storedID int64

func (id storedID) MarshalJSON() ([]byte, error) {
	if id == 0 {
		return []byte("null"), nil
	}
	return []byte(`"` + strconv.FormatInt(int64(id), 10) + `"`), nil
}

// UnmarshalJSON also reads a number.
func (id *storedID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "" || s == "null" {
		*id = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s is not an id", b)
	}
	*id = storedID(n)
	return nil
}

func storeIDs(ids []model.TextID) []storedID {
	if ids == nil {
		return nil
	}
	out := make([]storedID, len(ids))
	for i, id := range ids {
		out[i] = storedID(id)
	}
	return out
}

func loadIDs(ids []storedID) []model.TextID {
	if ids == nil {
		return nil
	}
	out := make([]model.TextID, len(ids))
	for i, id := range ids {
		out[i] = model.TextID(id)
	}
	return out
}

// storedDate is a date or instant in RFC 3339, UTC, null when unset.
type storedDate struct{ time.Time }

func (d storedDate) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.UTC().Format(time.RFC3339))
}

func (d *storedDate) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil || *s == "" {
		*d = storedDate{}
		return nil
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return err
	}
	*d = storedDate{t.UTC()}
	return nil
}

func storeDate(d model.Date) storedDate { return storedDate{d.Time} }
func loadDate(d storedDate) model.Date  { return model.Date{Time: d.Time} }
