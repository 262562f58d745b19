package osmand

import (
	"bytes"
	"encoding/json"
	"math"
	"net/url"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// knotsPerMps converts the SDK's m/s to the knots positions store.
const knotsPerMps = 3600.0 / 1852.0

// jsonRequest is the Transistorsoft background-geolocation HTTP body:
// one location object, or an array of them when the SDK batches.
type jsonRequest struct {
	Location json.RawMessage `json:"location"`
	DeviceID any             `json:"device_id"`
}

type jsonLocation struct {
	Timestamp string      `json:"timestamp"`
	Event     string      `json:"event"`
	IsMoving  *bool       `json:"is_moving"`
	Odometer  *float64    `json:"odometer"`
	Coords    *jsonCoords `json:"coords"`
	Activity  *struct {
		Type string `json:"type"`
	} `json:"activity"`
	Battery *struct {
		IsCharging *bool    `json:"is_charging"`
		Level      *float64 `json:"level"`
	} `json:"battery"`
	Extras map[string]any `json:"extras"`
}

type jsonCoords struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	Accuracy  float64 `json:"accuracy"`
	Speed     float64 `json:"speed"`
	Heading   float64 `json:"heading"`
	Altitude  float64 `json:"altitude"`
}

// decodeJSON decodes the SDK body; the device id may also come from the
// query string when the body has none.
func decodeJSON(body []byte, query url.Values, now time.Time) (string, []*model.Position, error) {
	var req jsonRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return "", nil, model.Invalid("osmand: bad JSON body: %v", err)
	}
	id := jsonID(req.DeviceID)
	if id == "" {
		id = deviceID(query)
	}
	if id == "" {
		return "", nil, model.Invalid("osmand: missing device_id")
	}
	var locs []jsonLocation
	if raw := bytes.TrimSpace(req.Location); len(raw) > 0 && raw[0] == '[' {
		err := unmarshalNumbers(raw, &locs)
		if err != nil {
			return "", nil, model.Invalid("osmand: bad location array: %v", err)
		}
	} else {
		var loc jsonLocation
		if err := unmarshalNumbers(raw, &loc); err != nil || len(raw) == 0 || raw[0] != '{' {
			return "", nil, model.Invalid("osmand: missing or bad location")
		}
		locs = append(locs, loc)
	}
	if len(locs) == 0 {
		return "", nil, model.Invalid("osmand: empty location array")
	}
	positions := make([]*model.Position, 0, len(locs))
	for i := range locs {
		pos, err := locs[i].position(now)
		if err != nil {
			return "", nil, err
		}
		positions = append(positions, pos)
	}
	return id, positions, nil
}

// unmarshalNumbers decodes with json.Number for untyped numbers, so extras
// keep integers exact.
func unmarshalNumbers(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// jsonID accepts the device id as a string or a number.
func jsonID(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

func (l *jsonLocation) position(now time.Time) (*model.Position, error) {
	pos := newPosition()
	hasTime := l.Timestamp != ""
	if hasTime {
		t, err := parseTimestamp(l.Timestamp)
		if err != nil {
			return nil, err
		}
		pos.FixTime = t
	}
	if c := l.Coords; c != nil {
		if err := coordinates(c.Latitude, c.Longitude); err != nil {
			return nil, err
		}
		pos.Latitude, pos.Longitude, pos.Altitude = c.Latitude, c.Longitude, c.Altitude
		pos.Accuracy = math.Max(c.Accuracy, 0)
		// The SDK reports -1 for an unknown speed or heading.
		pos.Speed = math.Max(c.Speed, 0) * knotsPerMps
		pos.Course = math.Max(c.Heading, 0)
	}
	a := pos.Attributes
	if l.IsMoving != nil {
		a["motion"] = *l.IsMoving
	}
	if l.Event != "" {
		a["event"] = l.Event
	}
	if l.Odometer != nil {
		a["odometer"] = *l.Odometer
	}
	if l.Activity != nil && l.Activity.Type != "" {
		a["activity"] = l.Activity.Type
	}
	if b := l.Battery; b != nil {
		if b.Level != nil && *b.Level >= 0 && *b.Level <= 1 {
			a["batteryLevel"] = int64(math.Round(*b.Level * 100))
		}
		if b.IsCharging != nil {
			a["charge"] = *b.IsCharging
		}
	}
	for k, v := range l.Extras {
		if v = extraValue(v); v != nil {
			a[k] = v
		}
	}
	finish(pos, hasTime, now)
	return pos, nil
}

// extraValue keeps integral numbers as int64 and other numbers as float64,
// booleans and strings as they are; nested values and null are dropped.
func extraValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
	case bool, string:
		return x
	}
	return nil
}
