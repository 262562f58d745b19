// Package geo holds the geometry fleetd needs: great-circle distance and
// Traccar's geofence areas in WKT with "lat lon" coordinate order.
package geo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

const earthRadius = 6371008.8 // meters, mean radius (IUGG)

// Distance is the haversine distance in meters between two points.
func Distance(lat1, lon1, lat2, lon2 float64) float64 {
	φ1, φ2 := lat1*math.Pi/180, lat2*math.Pi/180
	dφ := (lat2 - lat1) * math.Pi / 180
	dλ := (lon2 - lon1) * math.Pi / 180
	h := math.Sin(dφ/2)*math.Sin(dφ/2) + math.Cos(φ1)*math.Cos(φ2)*math.Sin(dλ/2)*math.Sin(dλ/2)
	return 2 * earthRadius * math.Asin(math.Min(1, math.Sqrt(h)))
}

// Shape is a geofence area.
type Shape interface {
	Contains(lat, lon float64) bool
}

// Circle is "CIRCLE (lat lon, radius)" with the radius in meters.
type Circle struct{ Lat, Lon, Radius float64 }

func (c Circle) Contains(lat, lon float64) bool {
	return Distance(c.Lat, c.Lon, lat, lon) <= c.Radius
}

// Polygon is "POLYGON ((lat lon, lat lon, ...))"; the ring may be closed
// or open. Longitudes are compared as given (no antimeridian wrapping).
type Polygon struct{ Lats, Lons []float64 }

// Contains uses the even-odd ray casting rule.
func (p Polygon) Contains(lat, lon float64) bool {
	in := false
	n := len(p.Lats)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		if (p.Lats[i] > lat) != (p.Lats[j] > lat) &&
			lon < (p.Lons[j]-p.Lons[i])*(lat-p.Lats[i])/(p.Lats[j]-p.Lats[i])+p.Lons[i] {
			in = !in
		}
	}
	return in
}

// maxPoints bounds a polygon so a hostile area cannot make every position
// check expensive.
const maxPoints = 10_000

// Parse reads a Traccar geofence area.
func Parse(wkt string) (Shape, error) {
	s := strings.TrimSpace(wkt)
	kind, rest, ok := strings.Cut(s, "(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return nil, fmt.Errorf("area %q: expected CIRCLE (lat lon, radius) or POLYGON ((lat lon, ...))", wkt)
	}
	body := strings.TrimSuffix(rest, ")")
	switch strings.ToUpper(strings.TrimSpace(kind)) {
	case "CIRCLE":
		center, radius, ok := strings.Cut(body, ",")
		if !ok {
			return nil, fmt.Errorf("circle %q: expected (lat lon, radius)", wkt)
		}
		lat, lon, err := point(center)
		if err != nil {
			return nil, err
		}
		r, err := strconv.ParseFloat(strings.TrimSpace(radius), 64)
		if err != nil || !(r > 0) || math.IsInf(r, 0) {
			return nil, fmt.Errorf("circle radius %q must be a positive number of meters", radius)
		}
		return Circle{lat, lon, r}, nil
	case "POLYGON":
		body = strings.TrimSpace(body)
		if !strings.HasPrefix(body, "(") || !strings.HasSuffix(body, ")") {
			return nil, fmt.Errorf("polygon %q: expected ((lat lon, ...))", wkt)
		}
		ring := strings.Split(body[1:len(body)-1], ",")
		if len(ring) < 3 || len(ring) > maxPoints {
			return nil, fmt.Errorf("polygon needs 3 to %d points, got %d", maxPoints, len(ring))
		}
		var p Polygon
		for _, pt := range ring {
			lat, lon, err := point(pt)
			if err != nil {
				return nil, err
			}
			p.Lats, p.Lons = append(p.Lats, lat), append(p.Lons, lon)
		}
		return p, nil
	}
	return nil, fmt.Errorf("area %q: unsupported shape %q (CIRCLE or POLYGON)", wkt, strings.TrimSpace(kind))
}

func point(s string) (lat, lon float64, err error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("point %q: expected \"lat lon\"", strings.TrimSpace(s))
	}
	if lat, err = strconv.ParseFloat(f[0], 64); err == nil {
		lon, err = strconv.ParseFloat(f[1], 64)
	}
	if err != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 || math.IsNaN(lat) || math.IsNaN(lon) {
		return 0, 0, fmt.Errorf("point %q: latitude must be within ±90 and longitude within ±180", strings.TrimSpace(s))
	}
	return lat, lon, nil
}
