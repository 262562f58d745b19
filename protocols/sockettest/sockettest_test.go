package sockettest_test

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/gt06"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

func unhex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A GT06 login and fix (samples.md) through the socket: answered, stored
// with the frame's values, and a mismatch reported.
func TestGT06ThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, gt06.New())
	d := e.Device("864717003283581", "", nil)
	c := e.Dial()
	c.Send(unhex(t, "78780D01086471700328358100093F040D0A"))
	c.Expect(unhex(t, "78780501000955940d0a"))
	c.Send(unhex(t, "78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a"))
	c.Expect(unhex(t, "787805120003903f0d0a"))
	ps := e.WaitStored(d.ID, 1)
	want := sockettest.Want{Time: time.Date(2015, 10, 20, 14, 21, 11, 0, time.UTC), Valid: true, Lat: 54.94535, Lon: 24.01762,
		Attributes: model.Attributes{"sat": 5}}
	sockettest.Check(t, ps[0], want)

	var rec recorder
	want.Attributes = model.Attributes{"sat": 6, "absent": true}
	want.Lat = 54.9
	sockettest.Check(&rec, ps[0], want)
	if len(rec.errors) != 3 {
		t.Errorf("mismatches reported: %q, want lat/lon, sat and absent", rec.errors)
	}
}

type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}
