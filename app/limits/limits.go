// Package limits bounds every string a client can make fleetd store, before
// the store is written; the limits themselves are the types' FieldLimits.
package limits

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

var limitedType = reflect.TypeFor[model.Limited]()

// FromRequests reports whether the core takes values of t from requests,
// bounding their strings as its FieldLimits say.
func FromRequests(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.Implements(limitedType)
}

// Verify reports a name t's FieldLimits declare that is not one of its
// string fields: a typo would leave that field at MaxText unnoticed.
func Verify(t reflect.Type) error {
	for name, want := range fieldLimits(t) {
		if got, ok := MaxLength(t, name); !ok || got != want {
			return fmt.Errorf("%s.%s: MaxLength %d, %v; want %d", t.Name(), name, got, ok, want)
		}
	}
	return nil
}

// fieldLimits are t's own limits (nil for a type that has none).
func fieldLimits(t reflect.Type) map[string]int {
	if !FromRequests(t) {
		return nil
	}
	return reflect.Zero(t).Interface().(model.Limited).FieldLimits()
}

// MaxLength is the maximum length of field (its JSON name; "device.name"
// for a nested one) of type t, for documents such as OpenAPI's. ok is false
// when t is not a type the core stores from requests or field is not one of
// its strings.
func MaxLength(t reflect.Type, field string) (limit int, ok bool) {
	if !FromRequests(t) {
		return 0, false
	}
	outer, inner, nested := strings.Cut(field, ".")
	for _, r := range rulesOf(t) {
		switch {
		case r.name != outer:
		case nested && r.kind == nestedRule:
			return MaxLength(r.elem, inner)
		case !nested && (r.kind == textRule || r.kind == textsRule):
			return r.limit, true
		}
	}
	return 0, false
}

// FromRequest runs apply, which fills v from a request, and checks the
// lengths of what v then holds: the one way the core takes a record from a
// client.
func FromRequest[T any](apply func(*T) error, v *T) error {
	if err := apply(v); err != nil {
		return err
	}
	return Check(v)
}

// Check refuses v, a pointer to a struct that came from a request,
// when one of its strings is longer than its field's limit, and names the
// field. Attributes maps are checked with Attributes.
func Check(v any) error {
	return checkValue(reflect.ValueOf(v).Elem(), "")
}

func checkValue(v reflect.Value, prefix string) error {
	for _, r := range rulesOf(v.Type()) {
		f := v.FieldByIndex(r.index)
		name := prefix + r.name
		var err error
		switch r.kind {
		case textRule:
			err = Text(name, f.String(), r.limit)
		case textsRule:
			for i := 0; i < f.Len() && err == nil; i++ {
				err = Text(name, f.Index(i).String(), r.limit)
			}
		case attributesRule:
			err = Attributes(name, f.Interface().(model.Attributes))
		case nestedRule:
			if f.Kind() == reflect.Pointer {
				if f.IsNil() {
					continue
				}
				f = f.Elem()
			}
			err = checkValue(f, name+".")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Text refuses s when it is longer than limit characters.
func Text(field, s string, limit int) error {
	if TooLong(s, limit) {
		return model.Invalid("%s may have at most %d characters", field, limit)
	}
	return nil
}

// TooLong reports s longer than limit characters.
func TooLong(s string, limit int) bool {
	return len(s) > limit && utf8.RuneCountInString(s) > limit // bytes >= characters
}

// Password refuses a password bcrypt could not take whole.
func Password(field, password string) error {
	if len(password) > model.MaxPassword {
		return model.Invalid("%s may have at most %d bytes", field, model.MaxPassword)
	}
	return nil
}

// Attributes bounds a free-form attributes map: keys model.MaxAttributeKey,
// strings model.MaxText, at any depth. The path to a value is only joined into
// a name for the error, so a map that passes costs no allocation.
func Attributes(field string, attrs model.Attributes) error {
	path := make([]string, 1, 8)
	path[0] = field
	return checkJSONObject(path, attrs)
}

func checkJSONObject(path []string, m map[string]any) error {
	for k, v := range m {
		if TooLong(k, model.MaxAttributeKey) {
			return model.Invalid("%s keys may have at most %d characters", strings.Join(path, "."), model.MaxAttributeKey)
		}
		if err := checkJSONValue(append(path, k), v); err != nil {
			return err
		}
	}
	return nil
}

// checkJSONValue walks a decoded JSON value; path names it.
func checkJSONValue(path []string, v any) error {
	switch x := v.(type) {
	case string:
		if TooLong(x, model.MaxText) {
			return model.Invalid("%s may have at most %d characters", strings.Join(path, "."), model.MaxText)
		}
	case map[string]any:
		return checkJSONObject(path, x)
	case model.Attributes: // set by the core rather than decoded
		return checkJSONObject(path, x)
	case []any:
		for _, e := range x {
			if err := checkJSONValue(path, e); err != nil {
				return err
			}
		}
	}
	return nil
}

type ruleKind int

const (
	textRule       ruleKind = iota // a string
	textsRule                      // a []string, each element bounded
	attributesRule                 // an Attributes map
	nestedRule                     // a struct of a Limited type (or a pointer to one)
)

// lengthRule is one field Check looks at.
type lengthRule struct {
	index []int
	name  string
	kind  ruleKind
	limit int
	elem  reflect.Type // a nested rule's struct type
}

var lengthRules sync.Map // reflect.Type -> []lengthRule

// rulesOf lists t's checked fields, following encoding/json's naming:
// the tag's name, else the Go name; "-" skipped; untagged embedded structs
// flattened.
func rulesOf(t reflect.Type) []lengthRule {
	if rs, ok := lengthRules.Load(t); ok {
		return rs.([]lengthRule)
	}
	var rs []lengthRule
	collectRules(t, fieldLimits(t), nil, &rs)
	lengthRules.Store(t, rs)
	return rs
}

var attributesType = reflect.TypeFor[model.Attributes]()

func collectRules(t reflect.Type, limits map[string]int, index []int, out *[]lengthRule) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		at := append(index[:len(index):len(index)], i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			collectRules(f.Type, limits, at, out)
			continue
		}
		if name == "" {
			name = f.Name
		}
		limit, ok := limits[name]
		if !ok {
			limit = model.MaxText
		}
		elem := f.Type
		if elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		switch {
		case f.Type == attributesType:
			*out = append(*out, lengthRule{index: at, name: name, kind: attributesRule})
		case f.Type.Kind() == reflect.String:
			*out = append(*out, lengthRule{index: at, name: name, kind: textRule, limit: limit})
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.String:
			*out = append(*out, lengthRule{index: at, name: name, kind: textsRule, limit: limit})
		case FromRequests(elem):
			*out = append(*out, lengthRule{index: at, name: name, kind: nestedRule, elem: elem})
		}
	}
}

// Required trims the named fields in place and refuses empty ones.
func Required(fields map[string]*string) error {
	var missing []string
	for name, p := range fields {
		if *p = strings.TrimSpace(*p); *p == "" {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return model.Invalid("%s is required", missing[0])
	}
	return model.Invalid("%s are required", strings.Join(missing, ", "))
}

// UniqueID refuses an identifier no tracker has: empty, longer than
// model.MaxUniqueID characters, not UTF-8 (nor U+FFFD, what bytes that were not
// become once stored), or holding a character that is not printable
// (control bytes of a corrupt frame; format characters such as zero-width
// or bidirectional marks that make two ids look alike).
func UniqueID(id string) error {
	switch {
	case id == "":
		return model.Invalid("uniqueId is empty")
	case !utf8.ValidString(id) || strings.ContainsRune(id, utf8.RuneError):
		return model.Invalid("uniqueId is not valid UTF-8")
	case TooLong(id, model.MaxUniqueID):
		return Text("uniqueId", id, model.MaxUniqueID)
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return model.Invalid("uniqueId holds the unprintable character %U", r)
		}
	}
	return nil
}
