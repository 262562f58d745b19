package model

import (
	"math"
	"strings"
)

// Query is one request for a list, the same for every kind and every API:
// which objects (the filters), with which text (Keyword), and which part of
// the matches (Offset and Limit). A list answers its matches in a stable
// order (id order unless the list says otherwise) together with their
// total, so a client can page through them.
//
// A filter a kind does not have is ignored, as Traccar ignores parameters a
// resource does not take: devices take IDs and UniqueIDs; commands,
// geofences, drivers and computed attributes take DeviceID and GroupID.
type Query struct {
	// Offset skips that many matches; Limit keeps at most that many of the
	// rest, 0 meaning all of them.
	Offset, Limit int
	// Keyword keeps the objects holding it in one of their searched text
	// fields (SearchFields), ignoring case; empty keeps everything.
	Keyword string

	// All asks, for an administrator or a manager, for every object it
	// may manage rather than those linked to it.
	All bool
	// UserID asks for another user's objects (administrators, managers).
	UserID int64
	// DeviceID and GroupID keep the objects linked to that device or group.
	DeviceID, GroupID int64
	// IDs and UniqueIDs keep the objects having one of these ids or
	// uniqueIds.
	IDs       []int64
	UniqueIDs []string
}

// PageQuery is the query for page number page (from 1) of limit items,
// the extended API's way of paging.
func PageQuery(page, limit int) Query {
	q := Query{Limit: max(limit, 0)}
	switch {
	case page <= 1 || q.Limit == 0:
	case page-1 > math.MaxInt/q.Limit:
		q.Offset = math.MaxInt // far past any list
	default:
		q.Offset = (page - 1) * q.Limit
	}
	return q
}

// Check refuses what no list can answer: a negative offset or limit.
func (q Query) Check() error {
	if q.Offset < 0 || q.Limit < 0 {
		return Invalid("offset and limit must not be negative")
	}
	return nil
}

// Takes reports whether the match numbered n (from 0, in the list's order)
// is inside q's window.
func (q Query) Takes(n int) bool {
	return n >= q.Offset && (q.Limit == 0 || n-q.Offset < q.Limit)
}

// Window is q's part of a list that is already whole in memory.
func Window[T any](list []T, q Query) []T {
	start := min(max(q.Offset, 0), len(list))
	end := len(list)
	if q.Limit > 0 {
		end = start + min(q.Limit, end-start)
	}
	return list[start:end]
}

// Matches reports whether v holds q.Keyword in one of its SearchFields,
// ignoring case: Traccar's LOWER(column) LIKE '%keyword%'. Without a
// keyword everything matches; a kind with no searched field matches no
// keyword.
func (q Query) Matches(v any) bool {
	if q.Keyword == "" {
		return true
	}
	keyword := strings.ToLower(q.Keyword)
	for _, field := range SearchFields(v) {
		if strings.Contains(strings.ToLower(field), keyword) {
			return true
		}
	}
	return false
}

// SearchFields are the text fields a keyword searches in v: the columns
// Traccar's resources give its keyword search (DeviceResource,
// UserResource, and the searchColumns of each SimpleObjectResource or
// ExtendedObjectResource).
func SearchFields(v any) []string {
	switch x := v.(type) {
	case *Device:
		return []string{x.Name, x.UniqueID, x.Phone, x.Model, x.Contact}
	case *User:
		return []string{x.Name, x.Email}
	case *Group:
		return []string{x.Name}
	case *Geofence:
		return []string{x.Name}
	case *Driver:
		return []string{x.Name, x.UniqueID}
	case *Command:
		return []string{x.Description}
	case *ComputedAttribute:
		return []string{x.Description}
	case *Calendar:
		return []string{x.Name}
	case *Maintenance:
		return []string{x.Name, x.Type}
	case *Notification:
		return []string{x.Description, x.Type}
	case *Report:
		return []string{x.Description, x.Type}
	}
	return nil
}

// Pager collects a list's answer to a query from its matches, offered in
// the list's order: the ones inside the window, and how many there are in
// all.
type Pager[T any] struct {
	q     Query
	Items []T
	Total int
}

// NewPager starts collecting the answer to q.
func NewPager[T any](q Query) *Pager[T] { return &Pager[T]{q: q, Items: []T{}} }

// Add offers the next match.
func (p *Pager[T]) Add(v T) {
	if p.q.Takes(p.Total) {
		p.Items = append(p.Items, v)
	}
	p.Total++
}
