package jt600

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/prototest"
	"github.com/fleetd/fleetd/protocols/sockettest"
)

// TestThroughTheSocket sends every shared frame as wire bytes over TCP to
// a real listener and store: the answers come once stored, the values are
// stored, and frames fleetd does not decode are neither stored nor
// answered. JT600 frames carry their id: no login comes first.
func TestThroughTheSocket(t *testing.T) {
	e := sockettest.Start(t, New())
	mph := func(v float64) float64 { return v * mphToKnots }
	u := sockettest.Want{Time: at("2012-08-04 18:53:02"), Valid: true, Lat: 22.564025, Lon: 113.242329, Speed: mph(5), Course: 152,
		SpeedTolerance: 1e-9, Attributes: model.Attributes{"sat": 9, "batteryLevel": 32, "status": 3, "odometer": 100000, "index": 1}}
	tests := []struct {
		name, id, wire, answer string
		want                   *sockettest.Want // nil: nothing stored
	}{
		{"WLNET escaped", "8054201973", string(prototest.Unhex(t, peripheralWire)), "", &sockettest.Want{
			Time: at("2025-02-28 08:59:53"), Valid: true, Lat: -25.2821467, Lon: -57.5465667,
			Attributes: model.Attributes{"temp1": 28.5, "humidity": 67, "sensorBattery": 3.2, "sensorRssi": -71}}},
		{"WLNET", "7500313609", string(prototest.Unhex(t, temperatureHex)), "", &sockettest.Want{
			Time: at("2019-07-22 16:31:18"), Lat: 22.5849433, Lon: 113.915825, Speed: 25, Course: 70,
			Attributes: model.Attributes{"temp1": 27.5, "humidity": 71}}},
		{"P45", "8000632862", lockEvent, "(P69,0,9)", &sockettest.Want{
			Time: at("2022-03-29 13:24:12"), Valid: true, Lat: -25.28217, Lon: -57.54683, Attributes: model.Attributes{"eventSource": 5}}},
		{"binary short", "6240901961", string(prototest.Unhex(t, shortFrame)), "", &sockettest.Want{
			Time: at("2017-07-19 03:49:36"), Valid: true, Lat: 31.462005, Lon: 74.39292, Speed: 29, Course: 176,
			Attributes: model.Attributes{"alarm": "gpsAntennaCut,overspeed,tow", "fuel": 8, "odometer": 30347000, "blocked": true}}},
		{"binary long", "7560503589", string(prototest.Unhex(t, longFrame)), "(P35)", &sockettest.Want{
			Time: at("2016-09-28 01:15:28"), Lat: -6.1445833, Lon: 106.8889167, Attributes: model.Attributes{"status": 225, "charge": true}}},
		{"U02", "3301210003", u02, "(S39)", &u},
		// U03 and U06 repeat U02's fix: answered, and the ingest keeps one.
		{"U03", "3301210003", u03, "(S39)", nil},
		{"U04", "3301210003", u04, "", nil},
		{"U06", "3301210003", u06, "(S20)", nil},
		{"@JT", "3460311327", heartbeat, "", nil},
		{"W01", "3110312099", w01, "", &sockettest.Want{Time: at("2011-05-04 06:37:36"), Valid: true, Lat: 22.54994, Lon: 114.07701,
			Speed: 4 / 1.852, Course: 7, SpeedTolerance: 1e-9, Attributes: model.Attributes{"power": 100, "gps": 4, "rssi": 17, "alertType": 1}}},
		{"U01 without a fix", "3330104377", u01NoFix, "(S39)", &sockettest.Want{Outdated: true, Attributes: model.Attributes{"index": 206}}},
		{"U09", "6221107674", u09, "", nil},
	}
	devices := map[string]*model.Device{}
	stored := map[string]int{}
	for _, tt := range tests {
		t.Log(tt.name) // the socket's failures name no frame
		d := devices[tt.id]
		if d == nil {
			d = e.Device(tt.id, "", nil)
			devices[tt.id] = d
		}
		c := e.Dial()
		c.Send([]byte(tt.wire))
		if tt.answer != "" {
			c.Expect([]byte(tt.answer))
		} else {
			c.Silent(200 * time.Millisecond)
		}
		if tt.want != nil {
			stored[tt.id]++
		}
		ps := e.WaitStored(d.ID, stored[tt.id])
		if tt.want != nil {
			sockettest.Check(t, ps[len(ps)-1], *tt.want)
		}
	}
}
