// Package osmand decodes the OsmAnd HTTP protocol used by the Traccar Client
// apps: a query string (`?id=...&lat=...&lon=...`), the same as a form body,
// or the JSON body of the Transistorsoft background-geolocation SDK. It is
// pure: the HTTP server that calls Decode lives elsewhere.
package osmand

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "osmand"

// Decode decodes one request into the device's uniqueId and its positions
// (Outdated ones when the request has no location: the ingest copies the
// last known one). now stamps positions that carry no time. Every error
// matches app.ErrInvalid, which the HTTP layer answers with 400.
func Decode(method, contentType string, query url.Values, body []byte, now time.Time) (uniqueID string, positions []*model.Position, err error) {
	now = now.UTC()
	if method == http.MethodGet || method == http.MethodHead {
		body = nil
	}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	if len(body) > 0 && (mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")) {
		return decodeJSON(body, query, now)
	}
	if len(query) == 0 && len(body) > 0 {
		// Like Traccar: parameters come from the body when the URL has none,
		// whatever the content type says.
		if query, err = url.ParseQuery(string(body)); err != nil {
			return "", nil, model.Invalid("osmand: bad form body: %v", err)
		}
	}
	id, pos, err := decodeQuery(query, now)
	if err != nil {
		return "", nil, err
	}
	return id, []*model.Position{pos}, nil
}

// CommandTypes lists the commands EncodeCommand supports.
func CommandTypes() []string { return protocols.CommandTypes(nil) }

// EncodeCommand returns the body of the HTTP reply that delivers a queued
// command: the app runs the text of a custom command.
func EncodeCommand(cmd *model.Command) (string, error) {
	return protocols.CommandText(cmd, nil)
}

// newPosition returns a position with the defaults both forms share.
func newPosition() *model.Position {
	return &model.Position{Protocol: Name, Valid: true, Attributes: model.Attributes{}}
}

// finish stamps the time when the request had none and marks a position
// without coordinates as outdated (Traccar's rule: 0,0 means "no fix").
func finish(pos *model.Position, hasTime bool, now time.Time) {
	if !hasTime {
		pos.FixTime = now
	}
	pos.DeviceTime = pos.FixTime
	pos.Outdated = pos.Latitude == 0 && pos.Longitude == 0
}
