package eelink

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestTCPThroughTheSocket sends the shared packets as wire bytes on one
// connection after the login: each is answered once stored (GPS 0x02
// never is), and the values are stored.
func TestTCPThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, pinned())
	d := e.Device("352544071750518", "", nil)
	c := e.Dial()
	c.Send(prototest.Unhex(t, login))
	c.Expect(prototest.Unhex(t, "6767010009007b6b05ca95000100"))
	steps := []struct{ frame, answer string }{
		{warningNoFix, "67671400020003"},
		{normalFrame, "6767120002000e"},
		{downlink, "67678000020000"},
		{stateNoFix, "6767050002001f"},
		{heartbeat, "67670300020028"},
		{warning, "67671400020051"},
		{gps, ""},
		{alarm, "676704000200b7"},
		{obd, "67670700020010"},
	}
	for i, s := range steps {
		c.Send(prototest.Unhex(t, s.frame))
		if s.answer != "" {
			c.Expect(prototest.Unhex(t, s.answer))
		}
		e.WaitStored(d.ID, i+1)
	}
	ps := e.WaitStored(d.ID, len(steps))
	sockettest.Check(t, ps[0], sockettest.Want{Outdated: true, Attributes: model.Attributes{"alarm": "removing", "status": 1024}})
	sockettest.Check(t, ps[1], sockettest.Want{Time: unix(0x5C37387C), Valid: true, Lat: 45.6160289, Lon: -73.6438533, Speed: 19 / 1.852, Course: 148,
		SpeedTolerance: 1e-9, Attributes: model.Attributes{"temp2": 28.75, "odometer": 1771135, "battery": 4.447, "index": 14}})
	sockettest.Check(t, ps[2], sockettest.Want{Time: time.Date(2017, 12, 2, 11, 29, 43, 0, time.UTC), Valid: true, Lat: 31.83955, Lon: -82.61346})
	// Outdated packets take the location the ingest holds as the latest.
	sockettest.Check(t, ps[3], sockettest.Want{Outdated: true, Attributes: model.Attributes{"event": 1, "ignition": true}})
	sockettest.Check(t, ps[4], sockettest.Want{Outdated: true, Attributes: model.Attributes{"status": 106}})
	sockettest.Check(t, ps[5], sockettest.Want{Time: unix(0x5784CC24), Valid: true, Lat: 21.2001572, Lon: 72.8305811, Speed: 1 / 1.852,
		SpeedTolerance: 1e-9, Attributes: model.Attributes{"alarm": "sos", "sat": 6}})
	sockettest.Check(t, ps[6], sockettest.Want{Time: unix(0x569FC361), Valid: true, Lat: 47.4636183, Lon: 19.04432, Course: 25,
		Attributes: model.Attributes{"battery": 4.464, "rssi": 50}})
	sockettest.Check(t, ps[7], sockettest.Want{Time: unix(0x569FC302), Lat: 47.4639417, Lon: 19.0431117, Attributes: model.Attributes{"alarm": "vibration"}})
	sockettest.Check(t, ps[8], sockettest.Want{Outdated: true, Attributes: model.Attributes{"odometer": 0, "fuel": 0}})
}

// TestUDPThroughTheSocket sends the shared datagrams: the login answered at
// once, the nine positions stored and answered in one datagram.
func TestUDPThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, pinned())
	e.Device("352544071677471", "", nil)
	d := e.Device("354679090044671", "", nil)
	c := e.DialUDP()
	c.Send(prototest.Unhex(t, udpLogin))
	c.Expect(prototest.Unhex(t, "454c0018e27c0352544071677471676701000900026b05ca95000100"))
	c.Send(prototest.Unhex(t, udpNormal))
	c.Expect(prototest.Unhex(t, "454c0049e9190354679090044671"+
		"676712000221316767120002213267671200022133676712000221346767120002213567671200022136676712000221376767120002213867671200022139"))
	ps := e.WaitStored(d.ID, 9)
	sockettest.Check(t, ps[0], sockettest.Want{Time: unix(0x5F3CF435), Valid: true, Lat: -31.8641122, Lon: 116.26077,
		Attributes: model.Attributes{"index": 0x2131, "sat": 10, "battery": 4.49}})
	sockettest.Check(t, ps[8], sockettest.Want{Time: unix(0x5F3CF483), Valid: true, Lat: -31.8641122, Lon: 116.26077,
		Attributes: model.Attributes{"index": 0x2139}})
}
