package api2_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

var param = regexp.MustCompile(`:(\w+)(<[^>]*>)?`)

// TestOpenAPIMatchesRoutes keeps /api2/openapi.json true: every /api2 route
// is documented and every documented operation exists.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	f := web.New(app.New(webtest.OpenStore(t), app.Options{}), web.Options{})
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
