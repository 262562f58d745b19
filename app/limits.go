package app

import (
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fleetd/fleetd/app/model"
)

// Every string a client can make fleetd store has a maximum length, checked
// before the store is written: a record stays small, and no value becomes an
// index key longer than the store takes (bbolt refuses keys over 32 KiB; a
// 40,000-digit uniqueId used to answer 500). Lengths count characters
// (Unicode code points), as JSON Schema's maxLength and Traccar's VARCHAR
// columns do; no limit is below Traccar's column for the same field, so
// what a Traccar client stores fits.
const (
	MaxUniqueID = 128   // device and driver uniqueId: Traccar's column
	MaxEmail    = 254   // the longest address RFC 5321 lets through
	MaxName     = 256   // names, titles, labels, phone numbers, short codes (Traccar: 128)
	MaxText     = 4096  // any other string, attribute values included (Traccar: 4000)
	MaxMessage  = 10000 // ticket descriptions and messages, notes
	MaxArea     = 65536 // a geofence's WKT (Traccar: 4096): about 3,000 polygon points
	// MaxAttributeKey bounds the keys of attributes maps.
	MaxAttributeKey = 128
	// MaxPassword is in bytes: bcrypt reads no further, so a longer
	// password would be silently cut.
	MaxPassword = 72
)

// fieldLimits declares, per type the core stores from a request and per
// JSON field name, the limits that differ from MaxText. Every other string
// field of these types (and of any type checkLengths is given) has MaxText.
var fieldLimits = map[reflect.Type]map[string]int{
	reflect.TypeFor[model.User](): {"name": MaxName, "login": MaxName, "email": MaxEmail, "phone": MaxName,
		"map": MaxName, "coordinateFormat": MaxName, "password": MaxPassword},
	reflect.TypeFor[model.Device](): {"name": MaxName, "uniqueId": MaxUniqueID, "status": MaxName, "phone": MaxName,
		"model": MaxName, "category": MaxName},
	reflect.TypeFor[model.Group]():    {"name": MaxName},
	reflect.TypeFor[model.Command]():  {"type": MaxName},
	reflect.TypeFor[model.Geofence](): {"name": MaxName, "area": MaxArea},
	reflect.TypeFor[model.Driver]():   {"name": MaxName, "uniqueId": MaxUniqueID},
	reflect.TypeFor[model.ComputedAttribute](): {"attribute": maxAttributeName, "expression": maxExpressionLength,
		"type": MaxName},
	reflect.TypeFor[model.Server](): {"map": MaxName, "bingKey": MaxName, "version": MaxName, "coordinateFormat": MaxName},

	reflect.TypeFor[Ticket](): {"title": MaxName, "description": MaxMessage, "category": MaxName, "status": MaxName,
		"user_info": MaxName, "device_info": MaxName},
	reflect.TypeFor[TicketDevice]():   {"value": MaxName, "name": MaxName},
	reflect.TypeFor[TicketResponse](): {"message": MaxMessage},
	reflect.TypeFor[Document](): {"documentOf": MaxName, "documentType": MaxName, "identifiedBy": MaxName,
		"identificationNo": MaxName, "VIN": MaxName, "status": MaxName, "issuedBy": MaxName, "notes": MaxMessage},
	reflect.TypeFor[ServiceRecord](): {"title": MaxName, "providerName": MaxName, "location": MaxName,
		"notes": MaxMessage, "serviceTasks": MaxName},
	reflect.TypeFor[ServiceTask]():  {"label": MaxName},
	reflect.TypeFor[Payment]():      {"method": MaxName, "currency": MaxName, "status": MaxName, "reference": MaxName},
	reflect.TypeFor[Installation](): {"notes": MaxMessage},
}

// FromRequests reports whether the core takes values of t from requests,
// bounding their strings as fieldLimits says.
func FromRequests(t reflect.Type) bool {
	_, ok := fieldLimits[t]
	return ok
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

// fromRequest runs apply, which fills v from a request, and checks the
// lengths of what v then holds: the one way the core takes a record from a
// client.
func fromRequest[T any](apply func(*T) error, v *T) error {
	if err := apply(v); err != nil {
		return err
	}
	return checkLengths(v)
}

// checkLengths refuses v, a pointer to a struct that came from a request,
// when one of its strings is longer than its field's limit, and names the
// field. Attributes maps are checked with checkAttributes.
func checkLengths(v any) error {
	return checkValue(reflect.ValueOf(v).Elem(), "")
}

func checkValue(v reflect.Value, prefix string) error {
	for _, r := range rulesOf(v.Type()) {
		f := v.FieldByIndex(r.index)
		name := prefix + r.name
		var err error
		switch r.kind {
		case textRule:
			err = checkText(name, f.String(), r.limit)
		case textsRule:
			for i := 0; i < f.Len() && err == nil; i++ {
				err = checkText(name, f.Index(i).String(), r.limit)
			}
		case attributesRule:
			err = checkAttributes(name, f.Interface().(model.Attributes))
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

// checkText refuses s when it is longer than limit characters.
func checkText(field, s string, limit int) error {
	if tooLong(s, limit) {
		return model.Invalid("%s may have at most %d characters", field, limit)
	}
	return nil
}

func tooLong(s string, limit int) bool {
	return len(s) > limit && utf8.RuneCountInString(s) > limit // bytes >= characters
}

// checkPassword refuses a password bcrypt could not take whole.
func checkPassword(field, password string) error {
	if len(password) > MaxPassword {
		return model.Invalid("%s may have at most %d bytes", field, MaxPassword)
	}
	return nil
}

// checkAttributes bounds a free-form attributes map: keys MaxAttributeKey,
// strings MaxText, at any depth. The path to a value is only joined into
// a name for the error, so a map that passes costs no allocation.
func checkAttributes(field string, attrs model.Attributes) error {
	path := make([]string, 1, 8)
	path[0] = field
	return checkJSONObject(path, attrs)
}

func checkJSONObject(path []string, m map[string]any) error {
	for k, v := range m {
		if tooLong(k, MaxAttributeKey) {
			return model.Invalid("%s keys may have at most %d characters", strings.Join(path, "."), MaxAttributeKey)
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
		if tooLong(x, MaxText) {
			return model.Invalid("%s may have at most %d characters", strings.Join(path, "."), MaxText)
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
	nestedRule                     // a struct of a type in fieldLimits (or a pointer to one)
)

// lengthRule is one field checkLengths looks at.
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
	collectRules(t, fieldLimits[t], nil, &rs)
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
			limit = MaxText
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
		case elem.Kind() == reflect.Struct && fieldLimits[elem] != nil:
			*out = append(*out, lengthRule{index: at, name: name, kind: nestedRule, elem: elem})
		}
	}
}
