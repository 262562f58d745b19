package dashboard_test

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// The map's tile source is the configured one (web.map.tileUrl, else the
// server's mapUrl, else OpenStreetMap), and the pages' policy admits its
// host for images, and the live socket of this host for connections.
func TestMapTilesAndContentPolicy(t *testing.T) {
	const common = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
	const socket = "; connect-src 'self' ws://example.com wss://example.com; "
	for _, tc := range []struct {
		name, tileURL, attribution, mapURL string
		tiles, credit, images              string
	}{
		{name: "default: OpenStreetMap", tiles: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
			credit: "© OpenStreetMap contributors", images: "https://tile.openstreetmap.org"},
		{name: "the server's mapUrl", mapURL: "http://tiles.lan:8080/{z}/{x}/{y}.png",
			tiles: "http://tiles.lan:8080/{z}/{x}/{y}.png", credit: "© OpenStreetMap contributors", images: "http://tiles.lan:8080"},
		{name: "the config over mapUrl, subdomains as a wildcard", tileURL: "https://{s}.tiles.example.net/osm/{z}/{x}/{y}.png",
			attribution: "© Example <Maps>", mapURL: "http://tiles.lan:8080/{z}/{x}/{y}.png",
			tiles: "https://{s}.tiles.example.net/osm/{z}/{x}/{y}.png", credit: "© Example &lt;Maps&gt;", images: "https://*.tiles.example.net"},
		{name: "tiles on this host", tileURL: "/tiles/{z}/{x}/{y}.png", tiles: "/tiles/{z}/{x}/{y}.png", credit: "© OpenStreetMap contributors"},
		{name: "a mapUrl whose host is no source: its scheme", mapURL: "https://tiles.example.net{r}/{z}/{x}/{y}.png",
			tiles: "https://tiles.example.net{r}/{z}/{x}/{y}.png", credit: "© OpenStreetMap contributors", images: "https:"},
		{name: "a protocol-relative mapUrl", mapURL: "//tiles.example.net/{z}/{x}/{y}.png",
			tiles: "//tiles.example.net/{z}/{x}/{y}.png", credit: "© OpenStreetMap contributors", images: "tiles.example.net"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if _, err := e.Core.Accounts.UpdateServer(e.users["admin"], func(s *model.Server) error {
				s.MapURL = tc.mapURL
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			e.App = web.New(e.Core, web.Options{TileURL: tc.tileURL, TileAttribution: tc.attribution})
			res := e.as("admin").get("/dashboard/fleet")
			webtest.Contains(t, "fleet page", res.Body, `data-tiles="`+tc.tiles+`"`, `data-attribution="`+tc.credit+`"`)
			img := "img-src 'self' data: blob:"
			if tc.images != "" {
				img += " " + tc.images
			}
			if got := res.Header.Get("Content-Security-Policy"); !strings.HasPrefix(got, common+img+socket) {
				t.Errorf("policy %q\nwant it to start %q", got, common+img+socket)
			}
		})
	}
}

// Every dashboard page has the policy, signed in or not, errors too; the
// static files and the API do not need it.
func TestContentPolicyOnPages(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	anonymous := &client{e: e}
	for _, tc := range []struct {
		name   string
		res    *webtest.Response
		policy bool
	}{
		{"a page", admin.get("/dashboard/"), true},
		{"the list fragment", admin.get("/dashboard/fleet?q=van", "HX-Request", "true", "HX-Target", "fleet-list"), true},
		{"the login page", anonymous.get("/dashboard/login"), true},
		{"a missing page", admin.get("/dashboard/no-such-page"), true},
		{"a script", anonymous.get("/assets/map.js"), false},
		{"the API", admin.get("/api/server"), false},
	} {
		got := tc.res.Header.Get("Content-Security-Policy")
		if (got != "") != tc.policy || (tc.policy && !strings.Contains(got, "script-src 'self';")) {
			t.Errorf("%s (%d): policy %q, want one: %v", tc.name, tc.res.Status, got, tc.policy)
		}
	}
}
