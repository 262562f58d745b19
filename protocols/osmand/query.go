package osmand

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app"
)

// idKeys name the device, in order of preference.
var idKeys = []string{"id", "deviceid"}

// decodeQuery decodes the query-string form. Speed is in knots, as the
// Traccar Client sends it.
func decodeQuery(params url.Values, now time.Time) (string, *app.Position, error) {
	id := deviceID(params)
	if id == "" {
		return "", nil, app.Invalid("osmand: missing id")
	}
	pos := newPosition()
	var net network
	hasTime := false
	// Sorted keys make a request with conflicting parameters decode the
	// same way every time.
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if slices.Contains(idKeys, key) {
			continue
		}
		for _, value := range params[key] {
			if key == "timestamp" {
				hasTime = true
			}
			if err := applyParam(pos, &net, key, value); err != nil {
				return "", nil, err
			}
		}
	}
	if err := coordinates(pos.Latitude, pos.Longitude); err != nil {
		return "", nil, err
	}
	pos.Network = net.value()
	finish(pos, hasTime, now)
	return id, pos, nil
}

func deviceID(params url.Values) string {
	for _, k := range idKeys {
		if v := strings.TrimSpace(params.Get(k)); v != "" {
			return v
		}
	}
	return ""
}

// applyParam stores one parameter; unknown ones become attributes.
func applyParam(pos *app.Position, net *network, key, value string) (err error) {
	var dst *float64
	switch key {
	case "valid":
		pos.Valid = strings.EqualFold(value, "true") || value == "1"
	case "timestamp":
		pos.FixTime, err = parseTimestamp(value)
	case "location":
		lat, lon, ok := strings.Cut(value, ",")
		if !ok {
			return app.Invalid("osmand: bad location %.40q", value)
		}
		if pos.Latitude, err = number(key, lat); err == nil {
			pos.Longitude, err = number(key, lon)
		}
	case "cell":
		err = net.addCell(value)
	case "wifi":
		err = net.addWifi(value)
	case "driverUniqueId":
		pos.Attributes["driverUniqueId"] = value
	case "lat":
		dst = &pos.Latitude
	case "lon":
		dst = &pos.Longitude
	case "speed":
		dst = &pos.Speed
	case "bearing", "heading":
		dst = &pos.Course
	case "altitude":
		dst = &pos.Altitude
	case "accuracy":
		dst = &pos.Accuracy
	case "hdop", "batt":
		v, err := number(key, value)
		if err != nil {
			return err
		}
		attrKey := map[string]string{"hdop": "hdop", "batt": "batteryLevel"}[key]
		pos.Attributes[attrKey] = v
	default:
		pos.Attributes[key] = attributeValue(value)
	}
	if dst != nil {
		*dst, err = number(key, value)
	}
	return err
}
