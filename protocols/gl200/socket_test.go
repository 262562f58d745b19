package gl200

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestSocket sends every shared frame as wire bytes to a real listener,
// over TCP and over UDP, one connection per device (the IMEI is in every
// message: no login), and checks each answer and what the store keeps.
func TestSocket(t *testing.T) {
	for _, network := range []string{"tcp", "udp"} {
		t.Run(network, func(t *testing.T) {
			e := sockettest.Start(t, New())
			devices := map[string]*model.Device{}
			conns := map[string]*sockettest.Conn{}
			stored := map[string]int{}
			for i, s := range shared {
				id := s.want.UniqueID
				if id == "" {
					// A binary command acknowledgement names no device and
					// gets no answer.
					c := e.Dial()
					c.Send(s.wire(t))
					continue
				}
				if devices[id] == nil {
					devices[id] = e.Device(id, "", nil)
					if network == "udp" {
						conns[id] = e.DialUDP()
					} else {
						conns[id] = e.Dial()
					}
				}
				c := conns[id]
				c.Send(s.wire(t))
				switch {
				case s.want.Reply != "":
					c.Expect([]byte(s.want.Reply))
				case s.want.Ack != "":
					c.Expect([]byte(s.want.Ack))
				}
				if len(s.want.Positions) == 0 {
					continue
				}
				stored[id] += len(s.want.Positions)
				ps := e.WaitStored(devices[id].ID, stored[id])
				ps = ps[len(ps)-len(s.want.Positions):]
				for k, w := range s.want.Positions {
					want := sockettest.Want{Valid: w.Valid, Outdated: w.Outdated, Lat: w.Lat, Lon: w.Lon,
						Speed: w.Speed, Course: w.Course, Attributes: w.Attributes, SpeedTolerance: 1e-9}
					if w.Outdated {
						// The ingest gives it the last fix's validity.
						want.Valid = ps[k].Valid
					} else {
						want.Time = w.Time
					}
					t.Logf("frame %d point %d", i+1, k+1)
					sockettest.Check(t, ps[k], want)
				}
			}
		})
	}
}
