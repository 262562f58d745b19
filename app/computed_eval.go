package app

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Computed attribute expressions are expr-lang expressions: side-effect
// free, no access to anything but the position they are given, and bounded
// in length, syntax nodes and (by expr's memory budget) work per run.
const (
	maxExpressionNodes = 300
	// maxPrograms bounds the compiled-expression cache.
	maxPrograms = 4096
)

var programs struct {
	sync.Mutex
	m map[string]*vm.Program
}

// compileExpression compiles src once; later calls share the program.
func compileExpression(src string) (*vm.Program, error) {
	programs.Lock()
	p, ok := programs.m[src]
	programs.Unlock()
	if ok {
		return p, nil
	}
	if len(src) > model.MaxExpression {
		return nil, model.Invalid("expression is longer than %d characters", model.MaxExpression)
	}
	p, err := expr.Compile(src, expr.AllowUndefinedVariables(), expr.MaxNodes(maxExpressionNodes))
	if err != nil {
		return nil, model.Invalid("expression: %v", err)
	}
	programs.Lock()
	if programs.m == nil || len(programs.m) >= maxPrograms {
		programs.m = map[string]*vm.Program{}
	}
	programs.m[src] = p
	programs.Unlock()
	return p, nil
}

// positionEnv is what an expression sees: the position's attributes by
// name, and its fields under their JSON names (which win over attributes).
func positionEnv(p *model.Position) map[string]any {
	env := make(map[string]any, len(p.Attributes)+16)
	for k, v := range p.Attributes {
		env[k] = v
	}
	address := ""
	if p.Address != nil {
		address = *p.Address
	}
	for k, v := range map[string]any{
		"deviceId": p.DeviceID, "protocol": p.Protocol, "serverTime": p.ServerTime, "deviceTime": p.DeviceTime,
		"fixTime": p.FixTime, "outdated": p.Outdated, "valid": p.Valid, "latitude": p.Latitude,
		"longitude": p.Longitude, "altitude": p.Altitude, "speed": p.Speed, "course": p.Course,
		"address": address, "accuracy": p.Accuracy,
	} {
		env[k] = v
	}
	return env
}

// convertResult turns an expression's value into the attribute's type;
// nil means "no value", and the attribute is not set.
func convertResult(typ string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch typ {
	case ComputedNumber:
		f, ok := model.Numeric(v)
		if text, isText := v.(string); isText {
			var err error
			f, err = strconv.ParseFloat(text, 64)
			ok = err == nil
		}
		// NaN and infinities (a division by zero) cannot be stored as JSON.
		if ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
	case ComputedBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case ComputedString:
		switch x := v.(type) {
		case string:
			return x, nil
		case bool, int, int64, float64:
			return fmt.Sprint(x), nil
		}
	}
	return nil, fmt.Errorf("result %v (%T) is not a %s", v, v, typ)
}

// applyComputed sets attrs (those linked to the device or its groups,
// loaded with the device's state) on p. It never fails the ingest: a broken
// expression is logged once and skipped.
func (c *Core) applyComputed(attrs []*model.ComputedAttribute, p *model.Position) {
	if len(attrs) == 0 {
		return
	}
	env := positionEnv(p)
	for _, a := range attrs {
		v, err := evalComputed(a, env)
		if err != nil {
			c.logComputedOnce(a, err)
			continue
		}
		if v != nil {
			p.Attributes[a.Attribute] = v
			env[a.Attribute] = v
		}
	}
}

func evalComputed(a *model.ComputedAttribute, env map[string]any) (any, error) {
	prog, err := compileExpression(a.Expression)
	if err != nil {
		return nil, err
	}
	out, err := expr.Run(prog, env)
	if err != nil {
		return nil, err
	}
	return convertResult(a.Type, out)
}

// deviceComputed are the attributes linked to d, its group and the group's
// ancestors, in evaluation order (priority, then id).
func deviceComputed(tx model.Tx, d *model.Device) ([]*model.ComputedAttribute, error) {
	ids, err := linkedToDevice(tx, d, model.KindAttribute)
	if err != nil {
		return nil, err
	}
	var out []*model.ComputedAttribute
	for _, id := range ids {
		if a, err := tx.ComputedAttributes().Get(id); err == nil {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.ComputedAttribute) int { return cmp.Compare(b.Priority, a.Priority) })
	return out, nil
}

// linkedToDevice lists the ids of kind linked to d, to its group or to
// the group's ancestors, sorted and without repeats.
func linkedToDevice(tx model.Tx, d *model.Device, kind string) ([]int64, error) {
	ids, err := tx.Linked(model.KindDevice, d.ID, kind)
	if err != nil {
		return nil, err
	}
	for g, hops := d.GroupID, 0; g != 0 && hops < 100; hops++ {
		more, err := tx.Linked(model.KindGroup, g, kind)
		if err != nil {
			return nil, err
		}
		ids = append(ids, more...)
		group, err := tx.Groups().Get(g)
		if err != nil {
			break
		}
		g = group.GroupID
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// logComputedOnce logs an evaluation failure once per attribute and
// expression (a store error once per text), not for every position.
func (c *Core) logComputedOnce(a *model.ComputedAttribute, err error) {
	key, id := err.Error(), int64(0)
	if a != nil {
		key, id = fmt.Sprintf("%d %s", a.ID, a.Expression), a.ID
	}
	if _, seen := c.computedErrs.LoadOrStore(key, true); !seen {
		c.log.Warn("computed attribute skipped", "attribute", id, "err", err)
	}
}

// TestComputedAttribute evaluates a (not necessarily stored) attribute on
// the device's latest position, as Traccar's /attributes/computed/test
// does; nil means the expression gave no value.
func (c *Core) TestComputedAttribute(actor *model.User, deviceID int64, a *model.ComputedAttribute) (any, error) {
	if err := checkComputed(a); err != nil {
		return nil, err
	}
	var p *model.Position
	err := c.store.View(func(tx model.Tx) (err error) {
		ac := access.Guard{Tx: tx, Actor: actor}
		if err := model.FirstError(ac.MustSee(model.KindDevice, deviceID), ac.Exists(model.KindDevice, deviceID)); err != nil {
			return err
		}
		p, err = tx.LatestPosition(deviceID)
		return err
	})
	if err != nil {
		return nil, err
	}
	v, err := evalComputed(a, positionEnv(p))
	if err != nil {
		return nil, model.Invalid("%v", err)
	}
	return v, nil
}
