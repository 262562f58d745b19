package simulate

import (
	"net/url"
	"strconv"
)

// osmandQuery is what the Traccar Client app sends for one fix: the
// parameters of a POST to "/", speed in knots, time in unix seconds. The
// server answers 200 once the position is stored.
func osmandQuery(id string, f Fix) url.Values {
	return url.Values{
		"id":        {id},
		"timestamp": {strconv.FormatInt(f.Time.Unix(), 10)},
		"lat":       {strconv.FormatFloat(f.Lat, 'f', 6, 64)},
		"lon":       {strconv.FormatFloat(f.Lon, 'f', 6, 64)},
		"speed":     {strconv.FormatFloat(f.Speed*knotsPerKmh, 'f', 2, 64)},
		"bearing":   {strconv.FormatFloat(f.Course, 'f', 1, 64)},
		"accuracy":  {"5.0"},
		"batt":      {"90"},
		"ignition":  {strconv.FormatBool(f.Ignition)},
	}
}
