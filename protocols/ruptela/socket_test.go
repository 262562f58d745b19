package ruptela

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestThroughTheSocket sends the shared frames as wire bytes through a
// real listener and store: identification and file parts are answered at
// once, records after they are stored, a command answer is recorded.
func TestThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, New())
	ids := map[string]*model.Device{}
	for _, id := range []string{"863514052765894", "869530043209218", "866600048995021", "865733025646027", "863591024076709"} {
		ids[id] = e.Device(id, "", nil)
	}
	c := e.Dial()
	c.Send(prototest.Unhex(t, identFrame))
	c.Expect(prototest.Unhex(t, "00027301cb25"))
	c.Send(prototest.Unhex(t, extRecordsFrame))
	c.Expect(prototest.Unhex(t, "0002640113bc"))
	c.Send(prototest.Unhex(t, filePartFrame))
	c.Expect(prototest.Unhex(t, "000d89020035444441314641440001bb29"))
	c.Send(prototest.Unhex(t, smsAnswerFrame))
	c.Send(prototest.Unhex(t, recordsFrame))
	c.Expect(prototest.Unhex(t, "0002640113bc"))

	ext := e.WaitStored(ids["863514052765894"].ID, 1)
	sockettest.Check(t, ext[0], sockettest.Want{Time: time.Date(2024, 12, 3, 17, 46, 7, 0, time.UTC), Valid: true,
		Lat: 33.53196, Lon: -7.637765, Speed: 61 * kphToKnots, Course: 163.9, SpeedTolerance: 1e-6,
		Attributes: model.Attributes{"driverUniqueId": "01d042f31d000030", "sat": 24, "event": 8, "power": 13.27}})
	rec := e.WaitStored(ids["863591024076709"].ID, 1)
	w := recordsWant
	sockettest.Check(t, rec[0], sockettest.Want{Time: w.Time, Valid: true, Lat: w.Lat, Lon: w.Lon, Speed: w.Speed,
		Course: w.Course, SpeedTolerance: 1e-6, Attributes: w.Attributes})
	// Identification and file parts store nothing.
	e.WaitStored(ids["869530043209218"].ID, 0)
	e.WaitStored(ids["866600048995021"].ID, 0)
}

// A frame with a bad CRC is not answered; once the device is marked
// ignoreChecksum it is stored and acknowledged.
func TestSocketChecksum(t *testing.T) {
	e := sockettest.Start(t, New())
	bad := prototest.Unhex(t, recordsFrame)
	bad[len(bad)-1] ^= 1
	d := e.Device("863591024076709", "", nil)
	c := e.Dial()
	c.Send(bad)
	c.Silent(200 * time.Millisecond)
	e.WaitStored(d.ID, 0)

	e2 := sockettest.Start(t, New())
	d2 := e2.Device("863591024076709", "", model.Attributes{"ignoreChecksum": true})
	c2 := e2.Dial()
	c2.Send(bad)
	c2.Expect(prototest.Unhex(t, "0002640113bc"))
	e2.WaitStored(d2.ID, 1)
}
