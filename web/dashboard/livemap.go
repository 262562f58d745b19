package dashboard

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// mapTiles is where a page's map takes its tiles from (map.js reads them
// from the map element's data-tiles and data-attribution).
type mapTiles struct {
	URL, Attribution string
}

// tiles is the configured tile source: the option, else the server's
// mapUrl setting when it is a tile template, else OpenStreetMap.
func (d *Dashboard) tiles() mapTiles {
	t := mapTiles{URL: d.opts.TileURL, Attribution: d.opts.TileAttribution}
	if t.Attribution == "" {
		t.Attribution = DefaultTileAttribution
	}
	if t.URL != "" {
		return t
	}
	if s, err := d.core.Accounts.Server(); err == nil && strings.Contains(s.MapURL, "{z}") {
		t.URL = s.MapURL
		return t
	}
	t.URL = DefaultTileURL
	return t
}

// liveDevice is what the fleet map starts from for one device the viewer
// sees: its status (for the counts) and, when the filters list it, its
// last position. Positions have the live socket's names and units
// (Traccar's: knots, UTC), so map.js treats both alike.
type liveDevice struct {
	ID         int64         `json:"id"`
	Name       string        `json:"name"`
	Status     string        `json:"status"`
	LastUpdate *time.Time    `json:"lastUpdate"`
	Listed     bool          `json:"listed"`
	Position   *livePosition `json:"position,omitempty"`
}

// livePosition is the part of a socket position the map shows.
type livePosition struct {
	DeviceID  int64     `json:"deviceId"`
	Latitude  float64   `json:"latitude"`
	Longitude float64   `json:"longitude"`
	Speed     float64   `json:"speed"`
	Course    float64   `json:"course"`
	FixTime   time.Time `json:"fixTime"`
}

func newLivePosition(p *model.Position) *livePosition {
	if p == nil {
		return nil
	}
	return &livePosition{DeviceID: p.DeviceID, Latitude: p.Latitude, Longitude: p.Longitude,
		Speed: p.Speed, Course: p.Course, FixTime: p.FixTime}
}

// speedFactor turns knots into the viewer's speed unit: map.js formats
// live speeds as the server does.
func speedFactor(ctx context.Context) string {
	return strconv.FormatFloat(shown(ctx).SpeedValue(1), 'g', -1, 64)
}

func speedLabel(ctx context.Context) string { return shown(ctx).SpeedLabel() }

// unixMillis is t for a script's Date.
func unixMillis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// rfc3339 is an optional instant for a data attribute ("" for none).
func rfc3339(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
