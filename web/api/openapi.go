package api

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/app/reports"
	"github.com/gofiber/fiber/v2"
)

// openapiPaths is the hand-written part of the OpenAPI document: paths,
// parameters, responses, security schemes and the schemas that are not Go
// types. A test keeps its paths and the router's routes equal.
//
//go:embed openapi.json
var openapiPaths []byte

// schemaTypes are the entity schemas, generated from the Go types so field
// names and types cannot drift from what the handlers render, nor the
// lengths (maxLength) from what the core accepts.
var schemaTypes = map[string]any{
	"User": model.User{}, "Device": model.Device{}, "Group": model.Group{}, "Command": model.Command{},
	"Geofence": model.Geofence{}, "Driver": model.Driver{}, "Attribute": model.ComputedAttribute{}, "Position": model.Position{}, "Event": model.Event{}, "Server": model.Server{},
	"Calendar": model.Calendar{}, "Maintenance": model.Maintenance{}, "DeviceAccumulators": ingest.Accumulators{},
	"CombinedReportItem": fleet.CombinedItem{}, "GeofenceReportItem": fleet.GeofenceItem{},
	"Notification": model.Notification{}, "Announcement": notify.Announcement{},
	"Statistics": model.Statistics{}, "AuditEntry": model.AuditEntry{}, "Report": model.Report{},
	"TripReportItem": reports.Trip{}, "StopReportItem": reports.Stop{}, "SummaryReportItem": reports.SummaryItem{},
}

// openapiDoc is the served document, built on first use.
var openapiDoc = sync.OnceValues(buildOpenAPI)

func serveOpenAPI(c *fiber.Ctx) error {
	doc, err := openapiDoc()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(doc)
}

// buildOpenAPI adds the generated schemas to the hand-written document.
func buildOpenAPI() ([]byte, error) {
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	var top map[string]any
	if err := json.Unmarshal(openapiPaths, &top); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	if err := json.Unmarshal(openapiPaths, &doc); err != nil || doc.Components.Schemas == nil {
		return nil, fmt.Errorf("openapi.json: components.schemas missing")
	}
	for name, v := range schemaTypes {
		doc.Components.Schemas[name] = schemaOf(reflect.TypeOf(v))
	}
	top["components"].(map[string]any)["schemas"] = doc.Components.Schemas
	return json.Marshal(top)
}

var timeType = reflect.TypeFor[time.Time]()

// schemaOf describes t as an OpenAPI 3.0 schema, following encoding/json's
// rules for field names, embedded structs and omitted fields.
func schemaOf(t reflect.Type) map[string]any {
	nullable := false
	for t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), true
	}
	s := map[string]any{}
	switch {
	case t == timeType:
		s["type"], s["format"] = "string", "date-time"
	case t.Kind() == reflect.Bool:
		s["type"] = "boolean"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		s["type"] = "integer"
		if t.Bits() == 64 {
			s["format"] = "int64"
		}
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		s["type"] = "number"
	case t.Kind() == reflect.String:
		s["type"] = "string"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		s["type"], s["format"] = "string", "byte" // base64, as encoding/json writes []byte
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		s["type"], s["items"] = "array", schemaOf(t.Elem())
	case t.Kind() == reflect.Map:
		s["type"], s["additionalProperties"] = "object", true
	case t.Kind() == reflect.Struct:
		s["type"], s["properties"] = "object", properties(t, t)
	default: // interface: any JSON value
		nullable = true
	}
	if nullable {
		s["nullable"] = true
	}
	return s
}

// properties describes t's fields; root is the type they belong to (t,
// or the type t is embedded in), whose limits they carry.
func properties(root, t reflect.Type) map[string]any {
	props := map[string]any{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range properties(root, f.Type) {
				props[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := schemaOf(f.Type)
		if name == "password" {
			s["writeOnly"], s["format"] = true, "password"
			s["description"] = fmt.Sprintf("At most %d bytes (bcrypt).", model.MaxPassword)
		}
		limit(s, root, name)
		props[name] = s
	}
	return props
}

// limit adds what the core accepts of field name of root: a string's (or a
// list's strings') maxLength, an attributes map's bounds in words (OpenAPI
// 3.0 has no keyword for a map's key length).
func limit(s map[string]any, root reflect.Type, name string) {
	n, ok := limits.MaxLength(root, name)
	switch {
	case ok && s["type"] == "array":
		s["items"].(map[string]any)["maxLength"] = n
	case ok:
		s["maxLength"] = n
	case s["additionalProperties"] == true && limits.FromRequests(root):
		s["description"] = fmt.Sprintf("Free-form. Keys have at most %d characters, strings (at any depth) at most %d.",
			model.MaxAttributeKey, model.MaxText)
	}
}
