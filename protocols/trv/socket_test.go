package trv

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// Every shared frame through a real listener and store, on one connection
// that logs in first: the replies as the watch reads them, and the stored
// values.
func TestSocket(t *testing.T) {
	e := sockettest.Start(t, testProtocol())
	d := e.Device("355932600077007", "", nil)
	c := e.Dial()
	steps := []struct{ send, reply string }{
		{frameLogin, "IWBP00,20240506070809,0#"},
		{framePressure, "IWBPHT#"},
		{frameCells, "IWBP02#"},
		{frameAP10, "IWBP10#"},
		{frameHeartbeat, "IWBP03#"},
		{frameStatus, "TRVDP01#"},
		{frameAP01, "TRVBP01#"},
		{frameYP14, "TRVZP14#"},
	}
	for _, s := range steps {
		c.Send([]byte(s.send))
		c.Expect([]byte(s.reply))
	}
	// Command answers are not answered again.
	c.Send([]byte(frameSOSNums + frameContacts))
	c.Silent(200 * time.Millisecond)

	ps := e.WaitStored(d.ID, 7)
	wants := []sockettest.Want{
		{Outdated: true, Attributes: model.Attributes{"heartRate": 60, "pressureSystolic": 130, "pressureDiastolic": 85}},
		{Outdated: true},
		{Time: fix2008, Valid: true, Lat: 22.54968, Lon: 114.08226, Speed: 0.1 * kph, Course: 323.87, SpeedTolerance: 1e-9,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": false, "mode": 2}},
		{Outdated: true, Lat: 22.54968, Lon: 114.08226, Attributes: model.Attributes{"rssi": 60, "sat": 9, "batteryLevel": 80, "steps": 5555}},
		{Outdated: true, Lat: 22.54968, Lon: 114.08226, Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": true, "mode": 2}},
		{Time: fix2008, Valid: true, Lat: 22.54968, Lon: 114.08226, Speed: 0.1 * kph, Course: 323.87, SpeedTolerance: 1e-9,
			Attributes: model.Attributes{"rssi": 60, "sat": 9, "battery": 80, "armed": true, "mode": 2}},
		{Time: time.Date(2022, 2, 17, 13, 9, 19, 0, time.UTC), Valid: true, Lat: 52.596475, Lon: 7.403067, Course: 177.56,
			Attributes: model.Attributes{"rssi": 100, "sat": 5, "battery": 66, "mode": 2}},
	}
	for i, w := range wants {
		sockettest.Check(t, ps[i], w)
	}
}
