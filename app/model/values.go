package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TextID is an id that JSON carries as a string, as the extended API's ids
// are ("v1 ids are integers; the same entities appear in v2 with string
// ids"). It also accepts a JSON number, and an empty string or null as
// none. Zero is written as null (a public service task has no owner).
type TextID int64

func (id TextID) MarshalJSON() ([]byte, error) {
	if id == 0 {
		return []byte("null"), nil
	}
	return []byte(`"` + strconv.FormatInt(int64(id), 10) + `"`), nil
}

func (id *TextID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "" || s == "null" {
		*id = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("%s is not an id", b)
	}
	*id = TextID(n)
	return nil
}

// ParseTextID reads a positive decimal id.
func ParseTextID(s string) (TextID, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return 0, Invalid("%q is not an id", s)
	}
	return TextID(n), nil
}

func (id TextID) String() string { return strconv.FormatInt(int64(id), 10) }

// Date is an ISO 8601 date ("2025-03-01", midnight UTC) or timestamp
// ("2025-03-01T10:00:00+02:00"), kept in UTC. The zero Date is "not set":
// it is written as null, and "" or null read as it.
type Date struct{ time.Time }

var dateLayouts = []string{time.RFC3339, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05", time.DateOnly}

// ParseDate reads the forms Date accepts.
func ParseDate(s string) (Date, error) {
	s = strings.TrimSpace(s)
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return Date{t.UTC()}, nil
		}
	}
	return Date{}, Invalid("%q is not an ISO 8601 date (like 2025-03-01 or 2025-03-01T10:00:00Z)", s)
}

func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.UTC().Format(time.RFC3339))
}

func (d *Date) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("dates must be ISO 8601 strings, not %s", b)
	}
	if s == nil || strings.TrimSpace(*s) == "" {
		*d = Date{}
		return nil
	}
	parsed, err := ParseDate(*s)
	if err != nil {
		return fmt.Errorf("%q is not an ISO 8601 date (like 2025-03-01 or 2025-03-01T10:00:00Z)", *s)
	}
	*d = parsed
	return nil
}
