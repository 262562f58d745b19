package meiligao

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestThroughTheSocket sends every shared frame as wire bytes over TCP
// and UDP, each device on its connection, and checks the answers and what
// is stored. The devices whose frames carry a wrong CRC are registered
// with ignoreChecksum (samples-next.md: all but frames 1, 7 and 8).
func TestThroughTheSocket(t *testing.T) {
	frames := []struct {
		frame, id, answer string
		positions         int
		goodCRC           bool
	}{
		{dtc, "65789023543293", "", 1, true},
		{alarm, "143190975469", "", 1, false},
		{photo, "254748594772", "40400012254748594772ff88010220aa0d0a", 0, false},
		{photoData, "254748594772", "", 0, false},
		{retrans, "61172036237118", "", 5, false},
		{obd, "66104020094432", "", 1, false},
		{pos7, "190820157", "", 1, true},
		{rfid, "63070019470771", "", 1, true},
		{login, "123456", "40400012123456ffffffff400001a99b0d0a", 0, false},
		{pos10, "3358019703581", "", 1, false},
		{pos11, "59772037440584", "", 1, false},
		{other, "67622010053562", "", 0, false},
		{pos13, "35630704356520", "", 1, false},
	}
	for _, network := range []string{"tcp", "udp"} {
		t.Run(network, func(t *testing.T) {
			e := sockettest.Start(t, New())
			devices := map[string]*model.Device{}
			for _, f := range frames {
				if devices[f.id] == nil {
					var attrs model.Attributes
					if !f.goodCRC {
						attrs = model.Attributes{"ignoreChecksum": true}
					}
					devices[f.id] = e.Device(f.id, "", attrs)
				}
			}
			stored := map[string]int{}
			for _, f := range frames {
				c := e.Dial()
				if network == "udp" {
					c = e.DialUDP()
				}
				c.Send(prototest.Unhex(t, f.frame))
				if f.answer != "" {
					c.Expect(prototest.Unhex(t, f.answer))
				}
				stored[f.id] += f.positions
				ps := e.WaitStored(devices[f.id].ID, stored[f.id])
				switch f.frame {
				case rfid:
					sockettest.Check(t, ps[0], sockettest.Want{Time: time.Date(2006, 6, 28, 12, 3, 40, 0, time.UTC), Valid: true,
						Lat: 24, Lon: 121, Attributes: model.Attributes{"driverUniqueId": "0010362751"}})
				case pos7:
					sockettest.Check(t, ps[0], sockettest.Want{Time: time.Date(2016, 2, 24, 9, 43, 54, 0, time.UTC), Valid: true,
						Lat: 19.117698, Lon: 72.855418, Speed: 10.1, Course: 188.5, SpeedTolerance: 1e-9,
						Attributes: model.Attributes{"hdop": 0.8, "odometer": 36488752, "in4": true}})
				case dtc:
					sockettest.Check(t, ps[0], sockettest.Want{Outdated: true, Attributes: model.Attributes{"dtcs": "C1E88"}})
				}
			}
		})
	}
}
