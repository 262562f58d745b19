package api_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

type openapiDoc struct {
	Servers []struct{ URL string }
	Paths   map[string]map[string]json.RawMessage
}

// TestOpenAPIMatchesRouter keeps the document true: every /api route is
// documented and every documented operation is routed.
func TestOpenAPIMatchesRouter(t *testing.T) {
	e := newEnv(t)
	r := e.Call(t, "", "GET", "/api/openapi.json", "")
	if r.Status != 200 {
		t.Fatalf("openapi.json: %d", r.Status)
	}
	var doc openapiDoc
	r.Decode(t, &doc)
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/api" {
		t.Fatalf("servers %+v, want /api", doc.Servers)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" /api"+path] = true
		}
	}
	param := regexp.MustCompile(`:(\w+)(<[^>]*>)?`)
	routed := map[string]bool{}
	for _, rt := range e.App.GetRoutes(true) {
		if rt.Method == "HEAD" || !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		// A trailing wildcard is the document's {path}.
		routed[rt.Method+" "+strings.Replace(param.ReplaceAllString(rt.Path, "{$1}"), "/*", "/{path}", 1)] = true
	}
	for op := range routed {
		if !documented[op] {
			t.Errorf("%s is routed but not in openapi.json", op)
		}
	}
	for op := range documented {
		if !routed[op] {
			t.Errorf("%s is in openapi.json but not routed", op)
		}
	}
	if len(routed) < 30 {
		t.Errorf("only %d routes found; the comparison looks at the wrong router", len(routed))
	}
}

// TestOpenAPIReferences: every $ref resolves, the required schemas exist and
// the generated User schema exposes no hash and marks password write-only.
func TestOpenAPIReferences(t *testing.T) {
	e := newEnv(t)
	var doc map[string]any
	e.Call(t, "", "GET", "/api/openapi.json", "").Decode(t, &doc)
	lookup := func(ref string) any {
		var node any = doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, ok := node.(map[string]any)
			if !ok {
				return nil
			}
			node = m[part]
		}
		return node
	}
	var walk func(any)
	walk = func(node any) {
		switch n := node.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok && lookup(ref) == nil {
				t.Errorf("unresolved $ref %s", ref)
			}
			for _, v := range n {
				walk(v)
			}
		case []any:
			for _, v := range n {
				walk(v)
			}
		}
	}
	walk(doc)
	for _, name := range []string{"User", "Device", "Group", "Command", "Geofence", "Position", "Event", "Server", "Permission", "Error"} {
		if lookup("#/components/schemas/"+name) == nil {
			t.Errorf("schema %s missing", name)
		}
	}
	for _, scheme := range []string{"basicAuth", "cookieAuth"} {
		if lookup("#/components/securitySchemes/"+scheme) == nil {
			t.Errorf("security scheme %s missing", scheme)
		}
	}
	if lookup("#/components/securitySchemes/cookieAuth/name") != "JSESSIONID" {
		t.Error("cookie scheme is not JSESSIONID")
	}
	props, _ := lookup("#/components/schemas/User/properties").(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	if !slices.Contains(keys, "email") || !slices.Contains(keys, "id") || slices.Contains(keys, "PasswordHash") {
		t.Errorf("User properties %v", keys)
	}
	if lookup("#/components/schemas/User/properties/password/writeOnly") != true {
		t.Error("User.password is not writeOnly")
	}
	if lookup("#/components/schemas/Device/properties/lastUpdate/format") != "date-time" {
		t.Error("Device.lastUpdate is not a date-time")
	}
}

// TestOpenAPILimits: the document states the length limits the core
// enforces, on the generated entity schemas and the hand-written ones.
func TestOpenAPILimits(t *testing.T) {
	e := newEnv(t)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					MaxLength   *int
					Description string
					Items       struct{ MaxLength *int }
				}
			}
		}
	}
	e.Call(t, "", "GET", "/api/openapi.json", "").Decode(t, &doc)
	tests := []struct {
		schema, field string
		want          int // 0: no maxLength
	}{
		{"Device", "uniqueId", model.MaxUniqueID},
		{"Device", "name", model.MaxName},
		{"Device", "contact", model.MaxText},
		{"Driver", "uniqueId", model.MaxUniqueID},
		{"User", "email", model.MaxEmail},
		{"User", "password", model.MaxPassword},
		{"Geofence", "area", model.MaxArea},
		{"Attribute", "attribute", 64},
		{"Server", "announcement", model.MaxText},
		{"Credentials", "email", model.MaxEmail},
		{"Credentials", "password", model.MaxPassword},
		{"Position", "protocol", 0}, // the server writes positions
		{"Event", "type", 0},
	}
	for _, tt := range tests {
		p, ok := doc.Components.Schemas[tt.schema].Properties[tt.field]
		switch {
		case !ok:
			t.Errorf("%s.%s is not documented", tt.schema, tt.field)
		case tt.want == 0 && p.MaxLength != nil:
			t.Errorf("%s.%s has maxLength %d, want none", tt.schema, tt.field, *p.MaxLength)
		case tt.want != 0 && (p.MaxLength == nil || *p.MaxLength != tt.want):
			t.Errorf("%s.%s maxLength %v, want %d", tt.schema, tt.field, p.MaxLength, tt.want)
		}
	}
	if d := doc.Components.Schemas["Device"].Properties["attributes"].Description; !strings.Contains(d, "at most 128 characters") {
		t.Errorf("Device.attributes does not state its bounds: %q", d)
	}
}
