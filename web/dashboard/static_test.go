package dashboard_test

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"net/http/httptest"

	"github.com/fleetd/fleetd/web/dashboard"
	"github.com/gofiber/fiber/v2"
)

func TestStaticFingerprints(t *testing.T) {
	s, err := dashboard.NewStatic(fstest.MapFS{
		"app.css":        {Data: []byte("body{}")},
		"vendor/x/y.js":  {Data: []byte("1")},
		"images/dot.png": {Data: []byte("\x89PNG")},
	})
	if err != nil {
		t.Fatal(err)
	}
	f := fiber.New()
	f.Get(dashboard.AssetPrefix+"*", s.Handler)
	css := s.URL("app.css")
	if !regexp.MustCompile(`^/assets/app\.[0-9a-f]{12}\.css$`).MatchString(css) {
		t.Fatalf("URL(app.css) = %q", css)
	}
	cases := []struct {
		path, ifNoneMatch string
		status            int
		cache, ctype      string
	}{
		{css, "", 200, "public, max-age=31536000, immutable", "text/css; charset=utf-8"},
		{s.URL("vendor/x/y.js"), "", 200, "public, max-age=31536000, immutable", "text/javascript; charset=utf-8"},
		// Relative references from a style sheet use plain names: served, revalidated.
		{"/assets/images/dot.png", "", 200, "no-cache", "image/png"},
		// A stale fingerprint is not the current file.
		{"/assets/app.000000000000.css", "", 404, "", ""},
		{"/assets/missing.js", "", 404, "", ""},
		{"/assets/../go.mod", "", 404, "", ""},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("GET", tc.path, nil)
		res, err := f.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != tc.status || res.Header.Get("Cache-Control") != tc.cache ||
			(tc.ctype != "" && res.Header.Get("Content-Type") != tc.ctype) {
			t.Errorf("GET %s = %d cache %q type %q", tc.path, res.StatusCode, res.Header.Get("Cache-Control"), res.Header.Get("Content-Type"))
		}
		if etag := res.Header.Get("ETag"); res.StatusCode == 200 {
			req.Header.Set("If-None-Match", etag)
			if res, _ := f.Test(req); res.StatusCode != 304 {
				t.Errorf("GET %s with ETag %s = %d", tc.path, etag, res.StatusCode)
			}
		}
	}
}

// Every asset a page links to is served, with the long cache.
func TestPagesLinkServedAssets(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	body := admin.get("/dashboard/fleet").Body
	urls := regexp.MustCompile(`(?:href|src)="(/assets/[^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(urls) < 6 {
		t.Fatalf("fleet page links %d assets", len(urls))
	}
	if !strings.Contains(body, `rel="icon" type="image/svg+xml"`) {
		t.Error("no favicon")
	}
	for _, m := range urls {
		res := admin.get(m[1])
		if strings.HasSuffix(m[1], ".svg") && res.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("GET %s: Content-Type %q", m[1], res.Header.Get("Content-Type"))
		}
		if res.Status != 200 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || res.Body == "" {
			t.Errorf("GET %s = %d %q", m[1], res.Status, res.Header.Get("Cache-Control"))
		}
	}
	// Leaflet's style sheet finds its images by relative name.
	if res := admin.get("/assets/vendor/leaflet/images/layers.png"); res.Status != 200 {
		t.Errorf("leaflet image: %d", res.Status)
	}
}
