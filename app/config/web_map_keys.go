package config

import (
	"fmt"
	"net/url"
	"strings"
)

// WebMap is where the dashboard's maps take their tiles from.
type WebMap struct {
	// TileURL is a tile URL template ({z}/{x}/{y}, optionally {s}); empty:
	// the server's mapUrl setting, else OpenStreetMap's.
	TileURL string
	// Attribution is the credit the tiles' licence asks for (plain text).
	Attribution string
}

// webMapKeys set the map tiles, so a fleet without internet access (or
// with its own tile server) gets a working map.
func webMapKeys() []Key {
	return []Key{
		field("web.map.tileUrl", "", "Tile URL template of the dashboard's maps, like https://tiles.example.com/{z}/{x}/{y}.png ({s}: subdomains a, b, c) or a path on this host (/tiles/{z}/{x}/{y}.png); an offline or self-hosted tile server goes here. Empty: the server's mapUrl setting if it is a tile template, else OpenStreetMap (tile.openstreetmap.org).",
			parseTileURL, func(c *Config) *string { return &c.Web.Map.TileURL }, asIs[string]),
		field("web.map.attribution", "© OpenStreetMap contributors", "Credit shown in the map's corner for the tiles (plain text); their licence usually asks for it.",
			parseString, func(c *Config) *string { return &c.Web.Map.Attribution }, asIs[string]),
	}
}

// tilePlaceholders stand for what the map fills into a tile URL template.
var tilePlaceholders = strings.NewReplacer("{s}", "a", "{z}", "0", "{x}", "0", "{y}", "0", "{r}", "")

// parseTileURL takes an http(s) URL or an absolute path with {z}, {x}
// and {y}, or empty.
func parseTileURL(v any) (string, error) {
	s, err := parseString(v)
	if err != nil || s == "" {
		return s, err
	}
	for _, p := range []string{"{z}", "{x}", "{y}"} {
		if !strings.Contains(s, p) {
			return "", fmt.Errorf("%q lacks %s: a tile URL template is like https://tiles.example.com/{z}/{x}/{y}.png", s, p)
		}
	}
	u, err := url.Parse(tilePlaceholders.Replace(s))
	web := err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
	local := err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/")
	if !web && !local {
		return "", fmt.Errorf("%q is neither an http(s) URL nor a path on this host (/tiles/{z}/{x}/{y}.png)", s)
	}
	return s, nil
}
