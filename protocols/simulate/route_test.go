package simulate

import (
	"math"
	"testing"
	"time"
)

// drive runs a route for n steps with varying step lengths.
func drive(seed, vehicle int64, n int) []Fix {
	r := NewRoute(seed, vehicle)
	out := make([]Fix, n)
	for i := range out {
		out[i] = r.Next(time.Duration(500+i%7*250) * time.Millisecond)
	}
	return out
}

func TestRouteDeterministic(t *testing.T) {
	a, b := drive(42, 7, 2000), drive(42, 7, 2000)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d differs for the same seed and vehicle: %+v vs %+v", i, a[i], b[i])
		}
	}
	for _, other := range [][]Fix{drive(42, 8, 2000), drive(43, 7, 2000)} {
		if other[len(other)-1] == a[len(a)-1] {
			t.Errorf("another seed or vehicle drives the same route")
		}
	}
}

func TestRouteCity(t *testing.T) {
	for seed := range int64(2 * len(Cities)) {
		city := CityFor(seed)
		if city != Cities[seed%int64(len(Cities))] {
			t.Errorf("CityFor(%d) = %s", seed, city.Name)
		}
		first := NewRoute(seed, 1).Next(time.Millisecond)
		if d := distance(first.Lat, first.Lon, city.Lat, city.Lon); d > startRadius+1 {
			t.Errorf("seed %d starts %.0f m from %s", seed, d, city.Name)
		}
	}
	if CityFor(-1) != Cities[uint64(math.MaxUint64)%uint64(len(Cities))] {
		t.Errorf("negative seeds pick a city by their bits")
	}
}

// TestRoutePlausible drives several vehicles for a simulated day's worth of
// steps and checks what a map would show: speeds and courses in range,
// moves consistent with the speed, stops, parking with ignition off, and
// the vehicles staying around their city.
func TestRoutePlausible(t *testing.T) {
	const step = 2 * time.Second
	for vehicle := range int64(6) {
		r := NewRoute(3, vehicle)
		city := CityFor(3)
		prev := r.Next(step)
		var stopped, moving, parked, turns int
		for range 20000 {
			f := r.Next(step)
			if f.Speed < 0 || f.Speed > maxSpeed {
				t.Fatalf("speed %v out of 0..%v", f.Speed, maxSpeed)
			}
			if f.Course < 0 || f.Course >= 360 {
				t.Fatalf("course %v out of [0, 360)", f.Course)
			}
			moved := distance(prev.Lat, prev.Lon, f.Lat, f.Lon)
			if want := f.Speed / 3.6 * step.Seconds(); math.Abs(moved-want) > 0.01*want+0.01 {
				t.Fatalf("moved %.2f m at %.1f km/h in %v, want %.2f", moved, f.Speed, step, want)
			}
			if d := f.Odometer - prev.Odometer; math.Abs(d-moved) > 0.01*moved+0.01 {
				t.Fatalf("odometer grew %.2f m for a %.2f m move", d, moved)
			}
			if d := distance(f.Lat, f.Lon, city.Lat, city.Lon); d > homeRadius+2000 {
				t.Fatalf("vehicle %d strayed %.0f km from %s", vehicle, d/1000, city.Name)
			}
			switch {
			case !f.Ignition && f.Speed > 0:
				t.Fatalf("driving at %v km/h with the ignition off", f.Speed)
			case !f.Ignition:
				parked++
			case f.Speed == 0:
				stopped++
			default:
				moving++
			}
			if f.Speed > 0 && angleDiff(f.Course, prev.Course) >= 40 {
				turns++
			}
			prev = f
		}
		if stopped == 0 || parked == 0 || moving < 20000/3 || turns == 0 {
			t.Errorf("vehicle %d: %d moving, %d stopped, %d parked, %d turns: not a drive", vehicle, moving, stopped, parked, turns)
		}
	}
}
