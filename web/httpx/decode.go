package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// Decode decodes the request's JSON object body onto v, which already
// holds defaults (create) or a copy of the stored record (update): fields
// absent from the body keep their value. An "attributes" key replaces v's
// Attributes map instead of merging into it, because clients send the
// whole map and expect removed keys to go. Unknown fields are ignored, as
// Traccar clients send fields fleetd does not keep.
func Decode(c *fiber.Ctx, v any) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	return decodeObject(body, v)
}

// DecodeJSON decodes the request's JSON body of any shape into v.
func DecodeJSON(c *fiber.Ctx, v any) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	return unmarshal(body, v)
}

// jsonBody is the request body, which must be declared JSON: a page of
// another site can make a browser send text/plain or a form without
// asking first, but not application/json. An empty body without a type
// passes (the decoders say a body is required).
func jsonBody(c *fiber.Ctx) ([]byte, error) {
	body, typ := c.Body(), c.Get(fiber.HeaderContentType)
	if (typ != "" || len(bytes.TrimSpace(body)) > 0) && !isJSON(typ) {
		return nil, fiber.NewError(fiber.StatusUnsupportedMediaType, "send the request body as JSON, with Content-Type: application/json")
	}
	return body, nil
}

// isJSON: application/json or a type/subtype+json, any parameters.
func isJSON(contentType string) bool {
	typ, _, err := mime.ParseMediaType(contentType)
	return err == nil && (typ == fiber.MIMEApplicationJSON || (strings.HasPrefix(typ, "application/") && strings.HasSuffix(typ, "+json")))
}

// decodeObject is Decode of a body already read.
func decodeObject(body []byte, v any) error {
	var fields map[string]json.RawMessage
	if err := unmarshal(body, &fields); err != nil {
		return err
	}
	if fields == nil {
		return model.Invalid("the request body must be a JSON object")
	}
	if _, ok := fields["attributes"]; ok {
		if attrs := reflect.ValueOf(v).Elem().FieldByName("Attributes"); attrs.IsValid() && attrs.CanSet() {
			attrs.SetZero()
		}
	}
	if coerceNumbers(fields, reflect.TypeOf(v).Elem()) {
		var err error
		if body, err = json.Marshal(fields); err != nil {
			return err
		}
	}
	return unmarshal(body, v)
}

// coerceNumbers turns the numeric strings of fields that are numbers in t
// into numbers, as Traccar's JSON reader (Jackson) takes them: Traccar's
// web app sends some numbers as the text of its input boxes
// ("start":"1000"). An empty string is as if the field were absent. It
// reports whether it changed anything.
func coerceNumbers(fields map[string]json.RawMessage, t reflect.Type) bool {
	changed := false
	for name, kind := range numericFields(t) {
		raw, ok := fields[name]
		if !ok || len(raw) == 0 || raw[0] != '"' {
			continue
		}
		var text string
		if json.Unmarshal(raw, &text) != nil {
			continue
		}
		text = strings.TrimSpace(text)
		if text == "" {
			delete(fields, name)
			changed = true
			continue
		}
		if _, err := strconv.ParseFloat(text, 64); err != nil || (kind != reflect.Float64 && strings.ContainsAny(text, ".eE")) {
			continue // left for unmarshal to refuse with its message
		}
		fields[name], changed = json.RawMessage(text), true
	}
	return changed
}

// numericFields maps the JSON names of t's number fields (those of
// embedded structs too) to their kind: reflect.Float64 for fractions,
// reflect.Int64 for whole numbers.
func numericFields(t reflect.Type) map[string]reflect.Kind {
	out := map[string]reflect.Kind{}
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
			for k, v := range numericFields(ft) {
				out[k] = v
			}
		case name == "" || name == "-" || !f.IsExported():
		case ft.Kind() == reflect.Float32 || ft.Kind() == reflect.Float64:
			out[name] = reflect.Float64
		case ft.Kind() >= reflect.Int && ft.Kind() <= reflect.Uint64:
			out[name] = reflect.Int64
		}
	}
	return out
}

// unmarshal turns encoding/json's errors into 400s that say what is wrong.
func unmarshal(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return model.Invalid("a JSON request body is required")
	}
	err := json.Unmarshal(body, v)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tim *time.ParseError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syntax):
		return model.Invalid("malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return model.Invalid("field %q must be %s, not %s", typ.Field, jsonType(typ.Type), typ.Value)
	case errors.As(err, &typ):
		return model.Invalid("the request body must be %s, not %s", jsonType(typ.Type), typ.Value)
	case errors.As(err, &tim):
		return model.Invalid("timestamp %s is not ISO 8601 (like 2024-01-01T00:00:00Z)", tim.Value)
	default:
		return model.Invalid("malformed request body: %s", err.Error())
	}
}

// jsonType names a Go type the way a JSON client thinks of it.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return fmt.Sprintf("a %s", t.Kind())
}
