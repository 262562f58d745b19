package t55

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

var (
	rmcWant = sockettest.Want{Time: time.Date(2009, 5, 5, 12, 57, 35, 0, time.UTC), Valid: true, Lat: 60.172392, Lon: 24.762140,
		Speed: 1, Course: 101.7}
	ggaWant = sockettest.Want{Time: midnight, Valid: true, Lat: 43.620013, Lon: -116.199262, Altitude: ptr(825.5),
		Attributes: model.Attributes{"sat": 5, "hdop": 3.5}}
)

func ptr(v float64) *float64 { return &v }

// Every shared frame through a real listener and store, as wire lines.
// No frame is answered. The two GGA sentences carry wrong checksums
// (samples-next.md): their devices are registered with ignoreChecksum.
func TestSocket(t *testing.T) {
	e := sockettest.Start(t, testProtocol())
	lenient := model.Attributes{"ignoreChecksum": true}

	// An identification, then positions and inputs on the connection.
	d := e.Device("359853000144328", "", lenient)
	c := e.Dial()
	c.Send([]byte(framePGID + "\r\n" + frameIOP + "\r\n" + frameGGA + "\r\n" + frameRMC + "\r\n"))
	c.Silent(100 * time.Millisecond)
	ps := e.WaitStored(d.ID, 3)
	sockettest.Check(t, ps[0], sockettest.Want{Outdated: true, Attributes: model.Attributes{"power": 4.69, "battery": 4.24}})
	sockettest.Check(t, ps[1], ggaWant)
	sockettest.Check(t, ps[2], rmcWant)

	// Each identification form names the device of the RMC after it; a
	// device not marked loses the GGA with a wrong checksum.
	for _, tt := range []struct{ line, id string }{
		{frameSIWMDID, "6Q5161694402B133"}, {frameDEVID, "0x0103846677F21422"}, {frameIMEIEq, "355797031609284"},
		{frameHexID, "358244017671308"}, {frameFID, "ID123456ABC"}, {framePCPTI, "CradlePoint Test"},
		{frameIMEI, "351467108700000"}, {frameCONNECT, "350030950116536"},
	} {
		d := e.Device(tt.id, "", nil)
		c := e.Dial()
		c.Send([]byte(tt.line + "\n" + frameGGA + "\n" + frameRMC + "\n"))
		sockettest.Check(t, e.WaitStored(d.ID, 1)[0], rmcWant)
	}

	// Sentences that carry their id, on a connection without identification.
	idGGA := e.Device("123456789", "", lenient)
	idRMC := e.Device("660420156A0066AA", "", nil)
	wmcs := e.Device("355826017981316", "", nil)
	c = e.Dial()
	c.Send([]byte(frameIDGGA + "\r\n" + frameIDRMC + "\r\n" + frameWMCSAlrm + "\r\n"))
	sockettest.Check(t, e.WaitStored(idGGA.ID, 1)[0], sockettest.Want{Time: midnight, Lat: 46.16946, Lon: 6.107643,
		Altitude: ptr(0), Attributes: model.Attributes{"sat": 0, "hdop": 4.3}})
	idRMCWant := sockettest.Want{Time: time.Date(2019, 1, 23, 12, 28, 6, 0, time.UTC), Valid: true, Lat: 1.320203, Lon: 103.916682}
	sockettest.Check(t, e.WaitStored(idRMC.ID, 1)[0], idRMCWant)
	sockettest.Check(t, e.WaitStored(wmcs.ID, 1)[0], sockettest.Want{Time: time.Date(2017, 5, 16, 16, 16, 28, 0, time.UTC),
		Lat: 51.64175, Lon: -2.21816, Course: 21.47,
		Attributes: model.Attributes{"status": "0x00004000", "alarm": "general", "satVisible": 0, "sat": 0}})

	// Over UDP each datagram stands alone: one with an id, one taken as
	// from the device named by the sender's address.
	byAddress := e.Device("127.0.0.1", "", nil)
	named := e.Device("990000561287964", "", nil)
	u := e.DialUDP()
	u.Send([]byte("990000561287964,$GPRMC,213516.0,A,4337.216791,N,11611.995877,W,0.0,335.4,181214,,,A * 72\r\n"))
	u.Send([]byte(frameRMC))
	sockettest.Check(t, e.WaitStored(named.ID, 1)[0], sockettest.Want{Time: time.Date(2014, 12, 18, 21, 35, 16, 0, time.UTC),
		Valid: true, Lat: 43.620280, Lon: -116.199931, Course: 335.4})
	sockettest.Check(t, e.WaitStored(byAddress.ID, 1)[0], rmcWant)
	u.Silent(100 * time.Millisecond)
}
