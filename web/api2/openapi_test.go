package api2_test

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
)

var param = regexp.MustCompile(`:(\w+)(<[^>]*>)?`)

// TestOpenAPIMatchesRoutes keeps /api2/openapi.json true: every /api2 route
// is documented and every documented operation exists.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := web.New(app.New(db, app.Options{}), web.Options{})
	res, err := f.Test(httptest.NewRequest("GET", "/api2/openapi.json", nil))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /api2/openapi.json: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
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
