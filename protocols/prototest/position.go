package prototest

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// LatLonTolerance is how far a decoded coordinate may be from the expected
// one, in degrees (about a metre; fixtures are written to 5 decimals).
const LatLonTolerance = 1e-5

// Position is what one decoded position must hold. Time is both FixTime
// and DeviceTime (in UTC); Attributes and Network must be deeply equal.
type Position struct {
	Time            time.Time
	Valid, Outdated bool
	Lat, Lon        float64
	Speed           float64 // knots
	Course          float64
	Altitude        float64
	Accuracy        float64
	Attributes      model.Attributes
	Network         any
}

// Result is what decoding one frame must give. An empty Reply or Ack means
// none (nil); Reply and Ack compare as text.
type Result struct {
	UniqueID      string
	Reply, Ack    string
	CommandResult string
	ChecksumError bool
	Positions     []Position
}

// Checker compares decoded results of one protocol with expectations.
type Checker struct {
	// Protocol is the name every position must carry.
	Protocol string
	// SpeedTolerance is how far Speed may be from the expected knots, for
	// protocols that convert units; 0 compares exactly.
	SpeedTolerance float64
}

// Decode decodes frame on a new connection, failing t on an error, and
// checks the result.
func (c Checker) Decode(t testing.TB, decode DecodeFunc, frame string, want Result) {
	t.Helper()
	res, err := decode(&protocols.Conn{}, []byte(frame))
	if err != nil {
		t.Fatalf("Decode(%q): %v", frame, err)
	}
	c.Result(t, res, want)
}

// Result checks a decoded result, then each of its positions.
func (c Checker) Result(t testing.TB, got protocols.Result, want Result) {
	t.Helper()
	if got.UniqueID != want.UniqueID || got.CommandResult != want.CommandResult || got.ChecksumError != want.ChecksumError {
		t.Errorf("id %q command result %q checksum error %v, want %q %q %v",
			got.UniqueID, got.CommandResult, got.ChecksumError, want.UniqueID, want.CommandResult, want.ChecksumError)
	}
	if !sameBytes(got.Reply, want.Reply) || !sameBytes(got.Ack, want.Ack) {
		t.Errorf("reply %q ack %q, want %q %q", got.Reply, got.Ack, want.Reply, want.Ack)
	}
	if len(got.Positions) != len(want.Positions) {
		t.Fatalf("got %d positions, want %d", len(got.Positions), len(want.Positions))
	}
	for i, w := range want.Positions {
		c.Position(t, got.Positions[i], w)
	}
}

// sameBytes reports whether b is want, with "" standing for nil.
func sameBytes(b []byte, want string) bool {
	if want == "" {
		return b == nil
	}
	return string(b) == want
}

// Position checks one decoded position field by field.
func (c Checker) Position(t testing.TB, p *model.Position, w Position) {
	t.Helper()
	if p == nil {
		t.Fatal("nil position")
	}
	if p.Protocol != c.Protocol || !p.FixTime.Equal(w.Time) || !p.DeviceTime.Equal(w.Time) ||
		p.FixTime.Location() != time.UTC || p.DeviceTime.Location() != time.UTC {
		t.Errorf("protocol %q fix %v device %v, want %q %v UTC", p.Protocol, p.FixTime, p.DeviceTime, c.Protocol, w.Time)
	}
	if p.Valid != w.Valid || p.Outdated != w.Outdated {
		t.Errorf("valid %v outdated %v, want %v %v", p.Valid, p.Outdated, w.Valid, w.Outdated)
	}
	if !near(p.Latitude, w.Lat, LatLonTolerance) || !near(p.Longitude, w.Lon, LatLonTolerance) {
		t.Errorf("lat/lon %v %v, want %v %v", p.Latitude, p.Longitude, w.Lat, w.Lon)
	}
	if !near(p.Speed, w.Speed, c.SpeedTolerance) || p.Course != w.Course || p.Altitude != w.Altitude || p.Accuracy != w.Accuracy {
		t.Errorf("speed %v course %v altitude %v accuracy %v, want %v %v %v %v",
			p.Speed, p.Course, p.Altitude, p.Accuracy, w.Speed, w.Course, w.Altitude, w.Accuracy)
	}
	if !reflect.DeepEqual(p.Attributes, w.Attributes) {
		t.Errorf("attributes %#v\nwant %#v", p.Attributes, w.Attributes)
	}
	if !reflect.DeepEqual(p.Network, w.Network) {
		t.Errorf("network %#v\nwant %#v", p.Network, w.Network)
	}
}

// near reports whether got is within tol of want; NaN is never near.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}
