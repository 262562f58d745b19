package ingest

import (
	"fmt"

	"github.com/fleetd/fleetd/app/expression"
	"github.com/fleetd/fleetd/app/model"
)

// applyComputed sets attrs (those linked to the device or its groups,
// loaded with the device's state) on p. It never fails the ingest: a broken
// expression is logged once and skipped.
func (ig *Service) applyComputed(attrs []*model.ComputedAttribute, p *model.Position) {
	if len(attrs) == 0 {
		return
	}
	env := expression.Env(p)
	for _, a := range attrs {
		v, err := expression.Eval(a, env)
		if err != nil {
			ig.logComputedOnce(a, err)
			continue
		}
		if v != nil {
			p.Attributes[a.Attribute] = v
			env[a.Attribute] = v
		}
	}
}

// logComputedOnce logs an evaluation failure once per attribute and
// expression (a store error once per text), not for every position.
func (ig *Service) logComputedOnce(a *model.ComputedAttribute, err error) {
	key, id := err.Error(), int64(0)
	if a != nil {
		key, id = fmt.Sprintf("%d %s", a.ID, a.Expression), a.ID
	}
	if _, seen := ig.computedErrs.LoadOrStore(key, true); !seen {
		ig.log.Warn("computed attribute skipped", "attribute", id, "err", err)
	}
}
