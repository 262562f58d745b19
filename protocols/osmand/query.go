package osmand

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// idKeys name the device, in order of preference.
var idKeys = []string{"id", "deviceid"}

// decodeQuery decodes the query-string form. Speed is in knots, as the
// Traccar Client sends it.
func decodeQuery(params url.Values, now time.Time) (string, *model.Position, error) {
	id := deviceID(params)
	if id == "" {
		return "", nil, model.Invalid("osmand: missing id")
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

// numericFields are the numeric parameters stored in position fields.
var numericFields = map[string]func(*model.Position) *float64{
	"lat":      func(p *model.Position) *float64 { return &p.Latitude },
	"lon":      func(p *model.Position) *float64 { return &p.Longitude },
	"speed":    func(p *model.Position) *float64 { return &p.Speed },
	"bearing":  func(p *model.Position) *float64 { return &p.Course },
	"heading":  func(p *model.Position) *float64 { return &p.Course },
	"altitude": func(p *model.Position) *float64 { return &p.Altitude },
	"accuracy": func(p *model.Position) *float64 { return &p.Accuracy },
}

// numericAttributes are the numeric parameters stored as attributes, with
// the attribute name Traccar gives them.
var numericAttributes = map[string]string{"hdop": "hdop", "batt": "batteryLevel"}

// applyParam stores one parameter; unknown ones become attributes.
func applyParam(pos *model.Position, net *network, key, value string) (err error) {
	switch key {
	case "valid":
		pos.Valid = strings.EqualFold(value, "true") || value == "1"
	case "timestamp":
		pos.FixTime, err = parseTimestamp(value)
	case "location":
		lat, lon, ok := strings.Cut(value, ",")
		if !ok {
			return model.Invalid("osmand: bad location %.40q", value)
		}
		if pos.Latitude, err = number(key, lat); err == nil {
			pos.Longitude, err = number(key, lon)
		}
	case "cell":
		err = net.addCell(value)
	case "wifi":
		err = net.addWifi(value)
	case "driverUniqueId":
		pos.Attributes[key] = value
	default:
		if field, ok := numericFields[key]; ok {
			*field(pos), err = number(key, value)
		} else if attr, ok := numericAttributes[key]; ok {
			var v float64
			v, err = number(key, value)
			pos.Attributes[attr] = v
		} else {
			pos.Attributes[key] = attributeValue(value)
		}
	}
	return err
}
