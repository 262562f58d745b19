package fleet

import (
	"cmp"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/expression"
	"github.com/fleetd/fleetd/app/model"
)

var computedTypes = []string{model.ComputedString, model.ComputedNumber, model.ComputedBoolean}

func newComputedAttributes(fl *Service) *Objects[model.ComputedAttribute, *model.ComputedAttribute] {
	return &Objects[model.ComputedAttribute, *model.ComputedAttribute]{
		store: fl.store, kind: model.KindAttribute,
		table:   model.Tx.ComputedAttributes,
		prepare: func(_ access.Guard, _, v *model.ComputedAttribute) error { return checkComputed(v) },
	}
}

// checkComputed normalises v and refuses what the ingest could not
// evaluate; the expression is compiled here so a broken one never reaches
// the ingest.
func checkComputed(v *model.ComputedAttribute) error {
	v.Description, v.Attribute = strings.TrimSpace(v.Description), strings.TrimSpace(v.Attribute)
	v.Expression, v.Type = strings.TrimSpace(v.Expression), strings.TrimSpace(v.Type)
	switch {
	case v.Attribute == "" || v.Expression == "":
		return model.Invalid("attribute and expression are required")
	case strings.ContainsFunc(v.Attribute, isSpaceOrControl):
		return model.Invalid("attribute must be a name without spaces")
	case v.Type != "" && !slices.Contains(computedTypes, v.Type):
		return model.Invalid("type must be string, number or boolean, or none (text)")
	}
	if v.Description == "" {
		v.Description = v.Attribute
	}
	_, err := expression.Compile(v.Expression)
	return err
}

func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

// DeviceComputed are the attributes linked to d, its group and the group's
// ancestors, in evaluation order (priority, then id).
func DeviceComputed(tx model.Tx, d *model.Device) ([]*model.ComputedAttribute, error) {
	out, err := access.DeviceObjects(tx, d, model.KindAttribute, tx.ComputedAttributes())
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b *model.ComputedAttribute) int { return cmp.Compare(b.Priority, a.Priority) })
	return out, nil
}

// TestComputedAttribute evaluates a (not necessarily stored) attribute on
// the device's latest position, as Traccar's /attributes/computed/test
// does; nil means the expression gave no value.
func (fl *Service) TestComputedAttribute(actor *model.User, deviceID int64, a *model.ComputedAttribute) (any, error) {
	if err := checkComputed(a); err != nil {
		return nil, err
	}
	var p *model.Position
	err := fl.store.View(func(tx model.Tx) (err error) {
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
	v, err := expression.Eval(a, expression.Env(p))
	if err != nil {
		return nil, model.Invalid("%v", err)
	}
	return v, nil
}
