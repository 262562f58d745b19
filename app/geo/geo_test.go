package geo

import (
	"math"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		name                   string
		lat1, lon1, lat2, lon2 float64
		want, tol              float64
	}{
		{"same point", 54.9, 24.0, 54.9, 24.0, 0, 1e-9},
		{"one degree of latitude", 0, 0, 1, 0, 111195, 1},
		{"Paris to London", 48.8566, 2.3522, 51.5074, -0.1278, 343_900, 1000},
		{"antipodes", 0, 0, 0, 180, math.Pi * earthRadius, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Distance(tt.lat1, tt.lon1, tt.lat2, tt.lon2)
			if math.Abs(got-tt.want) > tt.tol {
				t.Fatalf("Distance = %.1f, want %.1f ± %.1f", got, tt.want, tt.tol)
			}
		})
	}
}

func TestParseAndContains(t *testing.T) {
	tests := []struct {
		area     string
		lat, lon float64
		inside   bool
	}{
		{"CIRCLE (54.9 24.0, 1000)", 54.9, 24.0, true},
		{"CIRCLE (54.9 24.0, 1000)", 54.9081, 24.0, true},  // ~900 m north
		{"CIRCLE (54.9 24.0, 1000)", 54.9100, 24.0, false}, // ~1.1 km north
		{"circle(54.9 24.0,1000)", 54.9, 24.0, true},
		{"POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))", 5, 5, true},
		{"POLYGON ((0 0, 0 10, 10 10, 10 0))", 5, 5, true},
		{"POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))", 11, 5, false},
		{"POLYGON ((0 0, 0 10, 5 5, 10 10, 10 0))", 5, 8, false}, // in the notch
		{"POLYGON ((0 0, 0 10, 5 5, 10 10, 10 0))", 2, 5, true},
	}
	for _, tt := range tests {
		s, err := Parse(tt.area)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.area, err)
		}
		if got := s.Contains(tt.lat, tt.lon); got != tt.inside {
			t.Errorf("%s contains (%v %v) = %v, want %v", tt.area, tt.lat, tt.lon, got, tt.inside)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, area := range []string{
		"", "CIRCLE", "CIRCLE ()", "CIRCLE (54.9 24.0)", "CIRCLE (54.9 24.0, -5)", "CIRCLE (54.9 24.0, NaN)",
		"CIRCLE (95 24.0, 10)", "CIRCLE (54.9 24.0 7, 10)", "POLYGON ((0 0, 1 1))", "POLYGON (0 0, 1 1, 2 2)",
		"LINESTRING (0 0, 1 1)", "POLYGON ((a b, 1 1, 2 2))", "CIRCLE (54.9 24.0, 1e400)",
	} {
		if _, err := Parse(area); err == nil {
			t.Errorf("Parse(%q) accepted a bad area", area)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("CIRCLE (54.9 24.0, 1000)")
	f.Add("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))")
	f.Fuzz(func(t *testing.T, area string) {
		if s, err := Parse(area); err == nil {
			s.Contains(1, 1)
		}
	})
}
