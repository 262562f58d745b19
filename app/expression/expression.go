// Package expression is the language of computed attributes: expr-lang
// expressions over one position, compiled once and cached, their results
// converted to the attribute's type. The fleet checks expressions with it
// when they are saved, the ingest evaluates them on every position.
package expression

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
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

// Compile compiles src once; later calls share the program.
func Compile(src string) (*vm.Program, error) {
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

// Env is what an expression sees: the position's attributes by
// name, and its fields under their JSON names (which win over attributes).
func Env(p *model.Position) map[string]any {
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

// Convert turns an expression's value into the attribute's type;
// nil means "no value", and the attribute is not set.
func Convert(typ string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch typ {
	case model.ComputedNumber:
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
	case model.ComputedBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case model.ComputedString, "":
		// No type is text, as in Traccar, whose web app lets one save it.
		switch x := v.(type) {
		case string:
			return x, nil
		case bool, int, int64, float64:
			return fmt.Sprint(x), nil
		}
	}
	return nil, fmt.Errorf("result %v (%T) is not a %s", v, v, typ)
}

func Eval(a *model.ComputedAttribute, env map[string]any) (any, error) {
	prog, err := Compile(a.Expression)
	if err != nil {
		return nil, err
	}
	out, err := expr.Run(prog, env)
	if err != nil {
		return nil, err
	}
	return Convert(a.Type, out)
}
