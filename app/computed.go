package app

import (
	"github.com/fleetd/fleetd/app/model"
	"slices"
	"strings"
)

// ComputedAttribute follows Traccar's Attribute model
// (/api/attributes/computed): an expression over a position whose result
// the ingest stores as the position attribute named Attribute, for every
// device the attribute is linked to directly or through its groups.
type ComputedAttribute struct {
	model.Base
	Description string `json:"description"`
	Attribute   string `json:"attribute"`
	Expression  string `json:"expression"`
	// Type is what the result is converted to: string, number or boolean.
	Type string `json:"type"`
	// Priority orders evaluation: higher first, so later (lower) ones can
	// read what earlier ones computed.
	Priority int `json:"priority"`
}

// Result types of computed attributes.
const (
	ComputedString  = "string"
	ComputedNumber  = "number"
	ComputedBoolean = "boolean"
)

var computedTypes = []string{ComputedString, ComputedNumber, ComputedBoolean}

// maxAttributeName bounds the attribute a computed attribute sets (fieldLimits).
const maxAttributeName = 64

func computedTable(tx model.Tx) model.Table[ComputedAttribute] {
	return model.RecordTable[ComputedAttribute](tx, "computed_attributes", "Attribute")
}

func newComputedAttributes(c *Core) *Objects[ComputedAttribute, *ComputedAttribute] {
	return &Objects[ComputedAttribute, *ComputedAttribute]{
		c: c, kind: model.KindAttribute,
		table:   computedTable,
		prepare: func(_ access, _, v *ComputedAttribute) error { return v.check() },
	}
}

// check normalises v and refuses what the ingest could not evaluate; the
// expression is compiled here so a broken one never reaches the ingest.
func (v *ComputedAttribute) check() error {
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
