package reports

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// ignitionDrive drives 00:02-00:05 and switches the engine off at 00:06,
// a minute after parking. It carries fuel (liters left), engine hours (ms)
// and a driver.
func ignitionDrive() []*model.Position {
	return []*model.Position{
		pos(1, mins(0), 0, 0, "ignition", false, "hours", 1000000, "fuel", 50.25),
		pos(2, mins(1), 0, 0, "ignition", true, "hours", 1000000, "fuel", 50.25),
		pos(3, mins(2), 600, 20, "ignition", true, "hours", 1060000, "fuel", 50.0, "driverUniqueId", "D1"),
		pos(4, mins(3), 1200, 20, "ignition", true, "hours", 1120000, "fuel", 49.5),
		pos(5, mins(4), 1800, 20, "ignition", true, "hours", 1180000, "fuel", 49.0),
		pos(6, mins(5), 1800, 0, "ignition", true, "hours", 1240000, "fuel", 48.5),
		pos(7, mins(6), 1800, 0, "ignition", false, "hours", 1270000, "fuel", 48.5),
		pos(8, mins(7), 1800, 0, "ignition", false, "hours", 1270000, "fuel", 48.5),
	}
}

func TestUseIgnition(t *testing.T) {
	cfg := legacyConfig()
	cfg.UseIgnition = true
	// 3 turns motion on, 4 confirms it (600 m ≥ 500): a trip from 3. 6
	// turns it off; 7 reports the ignition off, which confirms the stop at
	// 6 at once instead of after 300 s.
	trips, stops := detect(cfg, ignitionDrive())
	checkSpans(t, "trips", tripSpans(trips), []span{{3, 6, 180000, 1200, 20, avg(1200, 180000)}})
	checkSpans(t, "stops", stopSpans(stops, ignitionDrive()), []span{
		{from: 1, to: 3, duration: 120000}, {from: 6, to: 8, duration: 120000}})

	// Without useIgnition 8 is only 120 s after 6: the trip is still open
	// and ends at the last position.
	trips, stops = detect(legacyConfig(), ignitionDrive())
	checkSpans(t, "trips without ignition", tripSpans(trips), []span{{3, 8, 300000, 1200, 20, avg(1200, 300000)}})
	checkSpans(t, "stops without ignition", stopSpans(stops, ignitionDrive()), []span{{from: 1, to: 3, duration: 120000}})
}

func TestItemFields(t *testing.T) {
	cfg := legacyConfig()
	cfg.UseIgnition = true
	addr := "Depot"
	ps := ignitionDrive()
	ps[0].Address = &addr
	d := NewDetector(cfg, device, func(id string) string {
		if id == "D1" {
			return "Ann"
		}
		return ""
	})
	for _, p := range ps {
		d.Add(p)
	}
	trips, stops := d.Finish()
	if len(trips) != 1 || len(stops) != 2 {
		t.Fatalf("got %d trips and %d stops, want 1 and 2", len(trips), len(stops))
	}
	str := func(s string) *string { return &s }
	// The trip runs 3 → 6: fuel is first minus last "fuel" (50 - 48.5),
	// the driver is 3's, named by the lookup; neither end has an address.
	wantTrip := Trip{
		Base: Base{DeviceID: 7, DeviceName: "Van 7", Distance: 1200, AverageSpeed: avg(1200, 180000),
			MaxSpeed: 20, SpentFuel: 1.5, StartOdometer: 600, EndOdometer: 1800,
			StartTime: t0.Add(mins(2)), EndTime: t0.Add(mins(5))},
		StartPositionID: 3, EndPositionID: 6, StartLon: east(600), EndLon: east(1800),
		Duration: 180000, DriverUniqueID: str("D1"), DriverName: str("Ann"),
	}
	if !reflect.DeepEqual(trips[0], wantTrip) {
		t.Errorf("trip:\n got %+v\nwant %+v", trips[0], wantTrip)
	}
	// The first stop runs 1 → 3 and takes 1's place and address; engine
	// hours are 3's "hours" minus 1's. A stop has no distance or speeds.
	wantStop := Stop{
		Base: Base{DeviceID: 7, DeviceName: "Van 7", SpentFuel: 0.25, StartOdometer: 0, EndOdometer: 600,
			StartTime: t0, EndTime: t0.Add(mins(2))},
		PositionID: 1, Address: &addr, Duration: 120000, EngineHours: 60000,
	}
	if !reflect.DeepEqual(stops[0], wantStop) {
		t.Errorf("stop:\n got %+v\nwant %+v", stops[0], wantStop)
	}
	if stops[1].EngineHours != 30000 {
		t.Errorf("second stop's engine hours %d, want 1270000-1240000", stops[1].EngineHours)
	}
}

func TestFuel(t *testing.T) {
	b := newBuilder(Config{}, &model.Device{Attributes: model.Attributes{"fuelCapacity": "80"}})
	for _, c := range []struct {
		name        string
		first, last model.Attributes
		want        float64
	}{
		{"fuelUsed counts up", model.Attributes{"fuelUsed": 10, "fuel": 40}, model.Attributes{"fuelUsed": 12.5, "fuel": 30}, 2.5},
		{"fuel counts down", model.Attributes{"fuel": 40}, model.Attributes{"fuel": 30}, 10},
		{"fuelLevel is % of fuelCapacity", model.Attributes{"fuelLevel": 50}, model.Attributes{"fuelLevel": 25}, 20},
		{"one end only", model.Attributes{"fuel": 40}, model.Attributes{}, 0},
	} {
		first, last := snapshot(&model.Position{Attributes: c.first}, 0), snapshot(&model.Position{Attributes: c.last}, 0)
		if got := b.fuel(&first, &last); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOdometer(t *testing.T) {
	// The A to B drive with a device odometer 10% ahead of totalDistance.
	withOdometer := func(firstOdometer float64) []*model.Position {
		ps := abDrive()
		for _, p := range ps {
			p.Attributes["odometer"] = 5000000 + 1.1*p.Attributes["totalDistance"].(float64)
		}
		ps[0].Attributes["odometer"] = firstOdometer
		return ps
	}
	ignore := DefaultConfig()
	ignore.IgnoreOdometer = true
	for _, c := range []struct {
		name                 string
		cfg                  Config
		positions            []*model.Position
		tripStart, tripEnd   float64 // first trip, 3 → 11
		summaryStart, sumEnd float64
	}{
		// Both ends report a non-zero odometer: it is used.
		{"odometer", DefaultConfig(), withOdometer(5000000), 5000000, 5001980, 5000000, 5003410},
		// report.ignoreOdometer: totalDistance.
		{"ignoreOdometer", ignore, withOdometer(5000000), 0, 1800, 0, 3100},
		// An end with odometer 0 falls back to totalDistance; the trip's
		// ends (3, 11) have one, the summary's first position does not.
		{"zero odometer", DefaultConfig(), withOdometer(0), 5000000, 5001980, 0, 3100},
	} {
		t.Run(c.name, func(t *testing.T) {
			trips, _ := detect(c.cfg, c.positions)
			tr := trips[0]
			if !near(tr.StartOdometer, c.tripStart) || !near(tr.EndOdometer, c.tripEnd) || !near(tr.Distance, c.tripEnd-c.tripStart) {
				t.Errorf("trip odometers %v..%v distance %v, want %v..%v", tr.StartOdometer, tr.EndOdometer, tr.Distance, c.tripStart, c.tripEnd)
			}
			s := NewSummary(c.cfg, device, t0, nil)
			for _, p := range c.positions {
				s.Add(p)
			}
			sum := s.Finish()[0]
			if !near(sum.StartOdometer, c.summaryStart) || !near(sum.EndOdometer, c.sumEnd) || !near(sum.Distance, c.sumEnd-c.summaryStart) {
				t.Errorf("summary odometers %v..%v distance %v, want %v..%v", sum.StartOdometer, sum.EndOdometer, sum.Distance, c.summaryStart, c.sumEnd)
			}
		})
	}
}

func TestEdges(t *testing.T) {
	for _, cfg := range []Config{DefaultConfig(), legacyConfig()} {
		// Nothing in: empty lists, which JSON renders as [].
		trips, stops := detect(cfg, nil)
		if trips == nil || stops == nil || len(trips)+len(stops) != 0 {
			t.Errorf("empty input: %v %v", trips, stops)
		}
		if b, _ := json.Marshal(trips); string(b) != "[]" {
			t.Errorf("empty trips render as %s", b)
		}
		// One still position opens a stop and is also its end.
		trips, stops = detect(cfg, []*model.Position{pos(1, 0, 0, 0)})
		if len(trips) != 0 || len(stops) != 1 || stops[0].PositionID != 1 || stops[0].Duration != 0 {
			t.Errorf("one still position: %+v %+v", trips, stops)
		}
		// One moving position is a zero-length trip: no average speed,
		// its own speed as the maximum.
		trips, stops = detect(cfg, []*model.Position{pos(1, 0, 0, 12)})
		if len(stops) != 0 || len(trips) != 1 || trips[0].Duration != 0 || trips[0].MaxSpeed != 12 || trips[0].AverageSpeed != 0 {
			t.Errorf("one moving position: %+v %+v", trips, stops)
		}
	}
	// A stored motion attribute wins over the speed, as it does in Traccar
	// (the ingest only fills it in when the device did not send it).
	_, stops := detect(DefaultConfig(), []*model.Position{pos(1, 0, 0, 12, "motion", false)})
	if len(stops) != 1 {
		t.Errorf("motion=false at 12 kn: %d stops, want 1", len(stops))
	}
	s := NewSummary(DefaultConfig(), device, t0, nil)
	if items := s.Finish(); items == nil || len(items) != 0 {
		t.Errorf("empty summary: %v", items)
	}
}

// TestJSONNames pins the field names to Traccar's report items.
func TestJSONNames(t *testing.T) {
	base := "averageSpeed deviceId deviceName distance endOdometer endTime maxSpeed spentFuel startOdometer startTime"
	for _, c := range []struct {
		item  any
		extra string
	}{
		{Trip{}, "driverName driverUniqueId duration endAddress endLat endLon endPositionId startAddress startLat startLon startPositionId"},
		{Stop{}, "address duration engineHours latitude longitude positionId"},
		{SummaryItem{}, "endHours engineHours startHours"},
	} {
		b, _ := json.Marshal(c.item)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range m {
			got = append(got, k)
		}
		want := strings.Fields(base + " " + c.extra)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%T:\n got %v\nwant %v", c.item, got, want)
		}
	}
}

func TestConfigFrom(t *testing.T) {
	attrs := map[string]any{
		"report.trip.newLogic":            "false",
		"report.trip.minimalTripDistance": "750",
		"report.trip.minimalTripDuration": json.Number("120"),
		"report.trip.minDistance":         250.9, // a Long key: truncated
		"report.trip.useIgnition":         "TRUE",
		"report.ignoreOdometer":           true,
		"event.motion.speedThreshold":     "0.5",
		"report.trip.stopGap":             "an hour", // does not parse: default
	}
	got := ConfigFrom(func(k string) (any, bool) { v, ok := attrs[k]; return v, ok })
	want := DefaultConfig()
	want.NewLogic = false
	want.MinimalTripDistance = 750
	want.MinimalTripDuration = 120 * time.Second
	want.MinDistance = 250
	want.UseIgnition = true
	want.IgnoreOdometer = true
	want.SpeedThreshold = 0.5
	if got != want {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
	if got := ConfigFrom(func(string) (any, bool) { return nil, false }); got != DefaultConfig() {
		t.Errorf("no attributes: %+v", got)
	}
}
