package app

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Result types of computed attributes.
const (
	ComputedString  = "string"
	ComputedNumber  = "number"
	ComputedBoolean = "boolean"
)

var computedTypes = []string{ComputedString, ComputedNumber, ComputedBoolean}

func newComputedAttributes(fl *Fleet) *Objects[model.ComputedAttribute, *model.ComputedAttribute] {
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
	case !slices.Contains(computedTypes, v.Type):
		return model.Invalid("type must be string, number or boolean")
	}
	if v.Description == "" {
		v.Description = v.Attribute
	}
	_, err := compileExpression(v.Expression)
	return err
}

func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }
