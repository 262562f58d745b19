package api2_test

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

var param = regexp.MustCompile(`:(\w+)(<[^>]*>)?`)

// TestOpenAPIMatchesRoutes keeps /api2/openapi.json true: every /api2 route
// is documented and every documented operation exists.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	f := newOfficeEnv(t).App
	res := webtest.Do(t, f, webtest.NewRequest("GET", "/api2/openapi.json", "", ""))
	if res.Status != 200 {
		t.Fatalf("GET /api2/openapi.json: %d %s", res.Status, res.Body)
	}
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	res.Decode(t, &doc)
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	routed := map[string]bool{}
	for _, r := range f.GetRoutes(true) {
		if rest, ok := strings.CutPrefix(r.Path, "/api2/"); ok && r.Method != "HEAD" {
			routed[r.Method+" /"+param.ReplaceAllString(rest, "{$1}")] = true
		}
	}
	var missing, extra []string
	for op := range routed {
		if !documented[op] {
			missing = append(missing, op)
		}
	}
	for op := range documented {
		if !routed[op] {
			extra = append(extra, op)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Fatalf("undocumented routes %v; documented but not routed %v", missing, extra)
	}
}

// schemaProp is the part of an OpenAPI schema the limit test reads.
type schemaProp struct {
	Type       string
	Enum       []any
	ReadOnly   bool
	Format     string
	MaxLength  *int
	Properties map[string]*schemaProp
	Items      *schemaProp
}

// TestOpenAPILimits: the document states every length limit the core
// enforces. The entity schemas are compared field by field with the Go
// types the core checks them as; the bodies defined in place with a table.
func TestOpenAPILimits(t *testing.T) {
	f := newOfficeEnv(t).App
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name, In string
				Schema   schemaProp
			}
			RequestBody struct {
				Content map[string]struct{ Schema schemaProp }
			}
		}
		Components struct{ Schemas map[string]*schemaProp }
	}
	webtest.Do(t, f, webtest.NewRequest("GET", "/api2/openapi.json", "", "")).Decode(t, &doc)

	// bounded is a property a client sets as free text.
	bounded := func(p *schemaProp) bool { return p.Type == "string" && p.Enum == nil && !p.ReadOnly && p.Format == "" }
	schemaTypes := map[string][]reflect.Type{
		"DeviceBody":     {reflect.TypeFor[model.Device](), reflect.TypeFor[model.Installation]()},
		"Payment":        {reflect.TypeFor[model.Payment]()},
		"Ticket":         {reflect.TypeFor[model.Ticket]()},
		"TicketResponse": {reflect.TypeFor[model.TicketResponse]()},
		"Document":       {reflect.TypeFor[model.Document]()},
		"ServiceRecord":  {reflect.TypeFor[model.ServiceRecord]()},
		"ServiceTask":    {reflect.TypeFor[model.ServiceTask]()},
	}
	var compare func(schema, prefix string, props map[string]*schemaProp)
	compare = func(schema, prefix string, props map[string]*schemaProp) {
		for name, p := range props {
			if p.Type == "object" {
				compare(schema, prefix+name+".", p.Properties)
				continue
			}
			doc := p
			if p.Type == "array" && p.Items != nil {
				doc = p.Items
			}
			if !bounded(doc) {
				continue
			}
			for _, typ := range schemaTypes[schema] {
				if limit, ok := limits.MaxLength(typ, prefix+name); ok {
					if doc.MaxLength == nil || *doc.MaxLength != limit {
						t.Errorf("%s.%s%s: maxLength %v, the core takes %d", schema, prefix, name, doc.MaxLength, limit)
					}
					break
				}
			}
		}
	}
	for schema := range schemaTypes {
		s := doc.Components.Schemas[schema]
		if s == nil {
			t.Fatalf("schema %s missing", schema)
		}
		compare(schema, "", s.Properties)
	}

	// Every free-text property of a body defined in place; ids (…Id) are
	// parsed as numbers and bounded that way.
	inPlace := map[string]int{
		"POST /auth/otp/verify otp":                           model.MaxName,
		"POST /auth/otp/verify identifier":                    model.MaxEmail,
		"POST /auth/login identifier":                         model.MaxEmail,
		"POST /auth/login password":                           model.MaxPassword,
		"POST /auth/account/reset email":                      model.MaxEmail,
		"POST /auth/account/reset phone":                      model.MaxName,
		"POST /auth/password/reset token":                     model.MaxName,
		"POST /auth/password/reset newPassword":               model.MaxPassword,
		"POST /auth/registration/init email":                  model.MaxEmail,
		"POST /auth/registration/init phone":                  model.MaxName,
		"POST /auth/registration/complete token":              model.MaxName,
		"POST /auth/registration/complete fullName":           model.MaxName,
		"POST /auth/registration/complete password":           model.MaxPassword,
		"POST /auth/demo-login/init phone":                    model.MaxName,
		"POST /auth/demo-login/init fullName":                 model.MaxName,
		"POST /security/update/init value":                    model.MaxEmail,
		"POST /security/update/init otp":                      model.MaxName,
		"POST /security/update/verify value":                  model.MaxEmail,
		"POST /security/update/verify otp":                    model.MaxName,
		"POST /security/verify-password password":             model.MaxPassword,
		"PUT /notifications/tokens token":                     model.MaxText,
		"DELETE /notifications/tokens token":                  model.MaxText,
		"POST /computed/mileage mileage":                      50,
		"POST /support/tickets/respond content":               model.MaxMessage,
		"PUT /support/tickets/responses/{responseId} message": model.MaxMessage,
		"POST /services/task label":                           model.MaxName,
		"DELETE /services/task label":                         model.MaxName,
		"GET /devices/check-imei/{imei_number} imei_number":   model.MaxUniqueID,
	}
	seen := map[string]bool{}
	check := func(key string, p *schemaProp) {
		seen[key] = true
		want, ok := inPlace[key]
		switch {
		case !ok:
			t.Errorf("%s: free text the limit table does not know", key)
		case p.MaxLength == nil || *p.MaxLength != want:
			t.Errorf("%s: maxLength %v, the core takes %d", key, p.MaxLength, want)
		}
	}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			call := strings.ToUpper(method) + " " + path
			for name, p := range op.RequestBody.Content["application/json"].Schema.Properties {
				if bounded(p) && !strings.HasSuffix(name, "Id") {
					check(call+" "+name, p)
				}
			}
			for _, p := range op.Parameters {
				if p.In == "path" && bounded(&p.Schema) && !strings.HasSuffix(p.Name, "Id") {
					check(call+" "+p.Name, &p.Schema)
				}
			}
		}
	}
	for key := range inPlace {
		if !seen[key] {
			t.Errorf("%s is not in the document", key)
		}
	}
}
