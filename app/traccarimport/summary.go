package traccarimport

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Summary is what an import did, kind by kind. An import that stopped
// (an error, an interruption) returns the summary of what it did before.
type Summary struct {
	// Server is the Traccar server's URL, Version what /api/server says.
	Server, Version string
	// Kinds are the objects in the order they were imported, then the
	// links between them ("links").
	Kinds []*Kind
	// History is nil when no history was asked for (no From).
	History *History
	// NeedReset are the e-mails of the users created with a random
	// password: Traccar does not give out passwords (it keeps hashes).
	NeedReset []string
	// Requests counts the GET requests sent to Traccar.
	Requests int
}

// Kind is one kind's tally.
type Kind struct {
	Name string // plural: "devices"
	// Created are new in fleetd; Existing were there already and equal
	// to Traccar's (or, for users, are never changed); Updated were there
	// and took Traccar's changes.
	Created, Existing, Updated int
	// Skipped are the objects fleetd refused, with its reason.
	Skipped []Skip
	// Notes are what was imported other than as it is in Traccar (a
	// reference to an object that was not imported, dropped).
	Notes []string
}

// Skip is an object not imported and why.
type Skip struct {
	What   string // "geofence 22 \"Route B17\""
	Reason string
}

// History is the tally of the positions and events.
type History struct {
	// From and To are the span asked for, [From, To).
	From, To time.Time
	// Devices is how many devices history was read for.
	Devices int
	// Positions and Events were stored; PositionsThere and EventsThere
	// were in fleetd already (the same fix time and place, or the same
	// time and type).
	Positions, PositionsThere int
	Events, EventsThere       int
	// EventsWithoutPosition are events whose position is not in fleetd
	// (outside the imported span): stored with positionId 0.
	EventsWithoutPosition int
	// Skipped counts what the store refused, by reason.
	Skipped map[string]int
	// Notes are the devices whose history was not read, and why.
	Notes []string
}

func (s *Summary) kind(name string) *Kind {
	for _, k := range s.Kinds {
		if k.Name == name {
			return k
		}
	}
	k := &Kind{Name: name}
	s.Kinds = append(s.Kinds, k)
	return k
}

// Kind returns the tally of name ("devices", "links"...), nil if that
// kind was not reached.
func (s *Summary) Kind(name string) *Kind {
	if i := slices.IndexFunc(s.Kinds, func(k *Kind) bool { return k.Name == name }); i >= 0 {
		return s.Kinds[i]
	}
	return nil
}

func (k *Kind) skip(what, reason string) { k.Skipped = append(k.Skipped, Skip{what, reason}) }

func (k *Kind) note(what, text string) { k.Notes = append(k.Notes, what+": "+text) }

// describe names a Traccar object in messages: kind, Traccar id, name.
func describe(kind string, id int64, name string) string {
	if name = strings.TrimSpace(name); name != "" {
		return fmt.Sprintf("%s %d %q", kind, id, name)
	}
	return fmt.Sprintf("%s %d", kind, id)
}
