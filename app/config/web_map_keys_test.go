package config

import "testing"

func TestTileURLValues(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"", true},
		{"https://tiles.example.com/{z}/{x}/{y}.png", true},
		{"https://{s}.tile.example.com/{z}/{x}/{y}{r}.png", true},
		{"http://10.0.0.5:8080/styles/basic/{z}/{x}/{y}.png", true},
		{"/tiles/{z}/{x}/{y}.png", true},
		{"https://tiles.example.com/{z}/{x}.png", false}, // no {y}
		{"tiles.example.com/{z}/{x}/{y}.png", false},     // neither a URL nor a path
		{"ftp://tiles.example.com/{z}/{x}/{y}.png", false},
		{"https://user:pw@tiles.example.com/{z}/{x}/{y}.png", false},
		{"https:///{z}/{x}/{y}.png", false},
	} {
		got, err := parseTileURL(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.in) {
			t.Errorf("parseTileURL(%q) = %q, %v; want ok %v", tc.in, got, err, tc.ok)
		}
	}
	if _, err := parseTileURL(7); err == nil {
		t.Error("a number taken as a tile URL")
	}
}

// The keys reach the config from the environment (and the file, as every key).
func TestMapKeysFromEnvironment(t *testing.T) {
	cleanEnv(t, map[string]string{"FLEETD_WEB_MAP_TILEURL": "http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png",
		"FLEETD_WEB_MAP_ATTRIBUTION": "© OpenMapTiles © OpenStreetMap contributors"})
	c, err := testRegistry.Load("")
	if err != nil || c.Web.Map.TileURL != "http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png" ||
		c.Web.Map.Attribution != "© OpenMapTiles © OpenStreetMap contributors" {
		t.Errorf("from the environment: %+v, %v", c.Web.Map, err)
	}
	cleanEnv(t, map[string]string{"FLEETD_WEB_MAP_TILEURL": "tiles/{z}/{x}/{y}.png"})
	if _, err := testRegistry.Load(""); err == nil {
		t.Error("a relative tile path was accepted")
	}
	if d := testRegistry.Default().Web.Map; d.TileURL != "" || d.Attribution != "© OpenStreetMap contributors" {
		t.Errorf("defaults: %+v", d)
	}
}
