package app

import (
	"maps"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func cloneMap(a model.Attributes) model.Attributes { return maps.Clone(a) }

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// laterThan reports whether t extends past limit (a nil t never expires; a
// nil limit is no limit).
func laterThan(t, limit *time.Time) bool {
	if limit == nil {
		return false
	}
	return t == nil || t.After(*limit)
}
