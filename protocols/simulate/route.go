package simulate

import (
	"math"
	"math/rand/v2"
	"time"
)

// Fix is one simulated GPS fix, in the units a route produces; each codec
// converts to what its protocol carries.
type Fix struct {
	Time     time.Time
	Lat, Lon float64 // degrees
	Speed    float64 // km/h
	Course   float64 // degrees clockwise from north, [0, 360)
	Ignition bool
	Odometer float64 // meters driven since the route began
}

// satellites is the satellite count every simulated fix reports.
const satellites = 9

// City is a fleet's home: vehicles start within startRadius of it.
type City struct {
	Name     string
	Lat, Lon float64
}

// Cities are spread over all four hemispheres so every sign of every
// coordinate encoding gets exercised.
var Cities = []City{
	{"Paris", 48.8566, 2.3522},
	{"New York", 40.7128, -74.0060},
	{"Sao Paulo", -23.5505, -46.6333},
	{"Sydney", -33.8688, 151.2093},
	{"Johannesburg", -26.2041, 28.0473},
	{"Tokyo", 35.6762, 139.6503},
	{"Mexico City", 19.4326, -99.1332},
	{"Mumbai", 19.0760, 72.8777},
	{"Buenos Aires", -34.6037, -58.3816},
	{"Nairobi", -1.2921, 36.8219},
	{"Berlin", 52.5200, 13.4050},
	{"Vancouver", 49.2827, -123.1207},
}

// Driving model. Mean times are between random events, in seconds.
const (
	earthRadius   = 6371000.0 // meters
	startRadius   = 8000.0    // meters from the city center
	homeRadius    = 30000.0   // beyond this the vehicle heads back
	maxSpeed      = 90.0      // km/h
	minCruise     = 20.0      // km/h
	accelKmhPerS  = 8.0
	brakeKmhPerS  = 12.0
	meanToStop    = 180.0 // a light, a delivery, parking
	meanNewTarget = 40.0  // speed limit or traffic changes
	meanToTurn    = 60.0  // turning at a junction
	parkAfter     = 2 * time.Minute
)

// Route is one vehicle's random drive: a roughly constant heading with
// junction turns, speeds between 0 and 90 km/h with stops (long stops
// switch the ignition off). It is deterministic for a seed and vehicle
// number and not safe for concurrent use.
type Route struct {
	rng                  *rand.Rand
	home                 City
	lat, lon             float64
	heading, speed, goal float64
	stop                 time.Duration // time left standing still
	parked               bool
	odometer             float64
}

// CityFor is the city a seed's fleet drives in.
func CityFor(seed int64) City { return Cities[uint64(seed)%uint64(len(Cities))] }

// NewRoute starts vehicle's route in the seed's city.
func NewRoute(seed, vehicle int64) *Route {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(vehicle)))
	r := &Route{rng: rng, home: CityFor(seed), heading: rng.Float64() * 360}
	// Uniform over a disc around the center.
	dist := startRadius * math.Sqrt(rng.Float64())
	r.lat, r.lon = offset(r.home.Lat, r.home.Lon, rng.Float64()*360, dist)
	r.goal = r.cruise()
	return r
}

// Next advances the vehicle by dt and returns its fix; Time is left zero
// for the caller to stamp.
func (r *Route) Next(dt time.Duration) Fix {
	s := dt.Seconds()
	switch {
	case r.stop > 0:
		r.stop -= dt
		if r.stop <= 0 {
			r.stop, r.parked, r.goal = 0, false, r.cruise()
		}
	case r.speed == 0 && r.goal == 0:
		r.stop = r.stopLength()
		r.parked = r.stop >= parkAfter
	default:
		if r.chance(s, meanToStop) {
			r.goal = 0
		} else if r.goal > 0 && r.chance(s, meanNewTarget) {
			r.goal = r.cruise()
		}
		r.accelerate(s)
		r.steer(s)
		d := r.speed / 3.6 * s
		r.lat, r.lon = offset(r.lat, r.lon, r.heading, d)
		r.odometer += d
	}
	return Fix{Lat: r.lat, Lon: r.lon, Speed: r.speed, Course: r.heading,
		Ignition: !r.parked, Odometer: r.odometer}
}

// chance is true with the probability that an event with the given mean
// interval happens within s seconds.
func (r *Route) chance(s, mean float64) bool { return r.rng.Float64() < 1-math.Exp(-s/mean) }

// cruise picks a target speed, mostly urban.
func (r *Route) cruise() float64 {
	v := minCruise + r.rng.ExpFloat64()*20
	return math.Round(min(v, maxSpeed))
}

// stopLength: mostly short stops (lights, traffic), sometimes parking.
func (r *Route) stopLength() time.Duration {
	if r.rng.Float64() < 0.2 {
		return time.Duration(2+r.rng.IntN(20)) * time.Minute
	}
	return time.Duration(5+r.rng.IntN(55)) * time.Second
}

func (r *Route) accelerate(s float64) {
	if r.speed < r.goal {
		r.speed = min(r.goal, r.speed+accelKmhPerS*s)
	} else {
		r.speed = max(r.goal, r.speed-brakeKmhPerS*s)
	}
}

// steer wobbles the heading slightly, turns at junctions and bends back
// towards home when the vehicle strays too far.
func (r *Route) steer(s float64) {
	if r.speed == 0 {
		return
	}
	r.heading += r.rng.NormFloat64() * 2 * math.Sqrt(s)
	if r.chance(s, meanToTurn) {
		turn := 90.0
		if r.rng.IntN(3) == 0 {
			turn = 45
		}
		if r.rng.IntN(2) == 0 {
			turn = -turn
		}
		r.heading += turn
	}
	if distance(r.lat, r.lon, r.home.Lat, r.home.Lon) > homeRadius {
		r.heading = bearing(r.lat, r.lon, r.home.Lat, r.home.Lon) + r.rng.NormFloat64()*20
	}
	r.heading = math.Mod(r.heading, 360)
	if r.heading < 0 {
		r.heading += 360
	}
	if r.heading >= 360 { // -tiny + 360 rounds to 360
		r.heading = 0
	}
}

// offset moves d meters from (lat, lon) along heading (equirectangular:
// steps are short).
func offset(lat, lon, heading, d float64) (float64, float64) {
	h := heading * math.Pi / 180
	dLat := d * math.Cos(h) / earthRadius
	dLon := d * math.Sin(h) / (earthRadius * math.Cos(lat*math.Pi/180))
	return lat + dLat*180/math.Pi, lon + dLon*180/math.Pi
}

// distance is the equirectangular distance in meters, enough at city scale.
func distance(lat1, lon1, lat2, lon2 float64) float64 {
	x := (lon2 - lon1) * math.Cos((lat1+lat2)/2*math.Pi/180)
	y := lat2 - lat1
	return math.Hypot(x, y) * math.Pi / 180 * earthRadius
}

// bearing is the initial heading from the first point to the second.
func bearing(lat1, lon1, lat2, lon2 float64) float64 {
	x := (lon2 - lon1) * math.Cos((lat1+lat2)/2*math.Pi/180)
	y := lat2 - lat1
	return math.Atan2(x, y) * 180 / math.Pi
}
