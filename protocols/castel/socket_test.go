package castel

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestThroughTheSocket sends every shared frame as wire bytes over TCP,
// then over UDP, through a real listener and store: answers as Traccar
// builds them, positions stored with the frames' values. The SC login's
// answer carries the server clock: it is sent on a connection of its own
// and its bytes are checked in TestSharedFrames with a fixed clock.
func TestThroughTheSocket(t *testing.T) {
	for _, network := range []string{"tcp", "udp"} {
		t.Run(network, func(t *testing.T) {
			e := sockettest.Start(t, New())
			wants := sharedWant(t)
			devices := map[string]*model.Device{}
			for _, w := range wants {
				if devices[w.UniqueID] == nil {
					devices[w.UniqueID] = e.Device(w.UniqueID, "", nil)
				}
			}
			c := e.Dial()
			if network == "udp" {
				c = e.DialUDP()
			}
			stored := map[string][]prototest.Position{}
			for i, w := range wants {
				if w.Reply != "" && w.Reply[25] == 0x90 && w.Reply[26] == 0x01 {
					login := e.Dial()
					if network == "udp" {
						login = e.DialUDP()
					}
					login.Send(prototest.Unhex(t, sharedFrames[i]))
					continue
				}
				c.Send(prototest.Unhex(t, sharedFrames[i]))
				switch {
				case w.Ack != "":
					c.Expect([]byte(w.Ack))
				case w.Reply != "":
					c.Expect([]byte(w.Reply))
				}
				stored[w.UniqueID] = append(stored[w.UniqueID], w.Positions...)
				if len(w.Positions) > 0 {
					// Datagrams are taken by several workers at once: the
					// next goes once this one's positions are stored, so
					// the store keeps the order they are checked in.
					e.WaitStored(devices[w.UniqueID].ID, len(stored[w.UniqueID]))
				}
			}
			for id, ws := range stored {
				ps := e.WaitStored(devices[id].ID, len(ws))
				for i, w := range ws {
					if w.Outdated {
						w.Time = time.Time{} // the ingest gives it the last fix's
					}
					sockettest.Check(t, ps[i], sockettest.Want{Time: w.Time, Valid: w.Valid, Outdated: w.Outdated,
						Lat: w.Lat, Lon: w.Lon, Speed: w.Speed, Course: w.Course, SpeedTolerance: 1e-9, Attributes: w.Attributes})
				}
			}
		})
	}
}
