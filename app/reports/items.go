package reports

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Base is what every item carries (Traccar's BaseReportItem). Speeds are
// knots, distances and odometers meters, fuel in the device's unit
// (liters).
type Base struct {
	DeviceID      int64     `json:"deviceId"`
	DeviceName    string    `json:"deviceName"`
	Distance      float64   `json:"distance"`
	AverageSpeed  float64   `json:"averageSpeed"`
	MaxSpeed      float64   `json:"maxSpeed"`
	SpentFuel     float64   `json:"spentFuel"`
	StartOdometer float64   `json:"startOdometer"`
	EndOdometer   float64   `json:"endOdometer"`
	StartTime     time.Time `json:"startTime"`
	EndTime       time.Time `json:"endTime"`
}

// Trip is Traccar's TripReportItem. Duration is milliseconds. The nullable
// strings are null in JSON when unknown, as Traccar sends them.
type Trip struct {
	Base
	StartPositionID int64   `json:"startPositionId"`
	EndPositionID   int64   `json:"endPositionId"`
	StartLat        float64 `json:"startLat"`
	StartLon        float64 `json:"startLon"`
	EndLat          float64 `json:"endLat"`
	EndLon          float64 `json:"endLon"`
	StartAddress    *string `json:"startAddress"`
	EndAddress      *string `json:"endAddress"`
	Duration        int64   `json:"duration"`
	DriverUniqueID  *string `json:"driverUniqueId"`
	DriverName      *string `json:"driverName"`
}

// Stop is Traccar's StopReportItem. Its Distance, AverageSpeed and MaxSpeed
// stay 0, as in Traccar. Duration and EngineHours are milliseconds.
type Stop struct {
	Base
	PositionID  int64   `json:"positionId"`
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
	Address     *string `json:"address"`
	Duration    int64   `json:"duration"`
	EngineHours int64   `json:"engineHours"`
}

// SummaryItem is Traccar's SummaryReportItem; the hours are milliseconds of
// the device's "hours" attribute, EngineHours = EndHours - StartHours.
type SummaryItem struct {
	Base
	EngineHours int64 `json:"engineHours"`
	StartHours  int64 `json:"startHours"`
	EndHours    int64 `json:"endHours"`
}

// knotsPerMps is Traccar's UnitsConverter ratio; it is not exactly
// 3600/1852, and reports must match to the digit.
const knotsPerMps = 1.94384

// point is what the reports need of a position, copied out of it so the
// caller may reuse or drop the position once Add returns.
type point struct {
	id       int64
	time     time.Time
	ms       int64 // fixTime in ms: Traccar's Date, used for every comparison
	lat, lon float64
	cosLat   float64
	speed    float64
	address  *string
	motion   bool

	distance      float64 // "distance": meters since the previous position
	totalDistance float64
	odometer      float64
	hours         int64
	fuelUsed      float64
	fuel          float64
	fuelLevel     float64
	ignition      bool
	driver        *string

	hasHours, hasFuelUsed, hasFuel, hasFuelLevel, hasIgnition bool
}

func snapshot(p *model.Position, speedThreshold float64) point {
	a := p.Attributes
	num := func(key string) (float64, bool) {
		v, ok := a[key]
		if !ok || v == nil {
			return 0, false
		}
		return number(v)
	}
	pt := place(p.Latitude, p.Longitude)
	pt.id, pt.time, pt.ms = p.ID, p.FixTime, p.FixTime.UnixMilli()
	pt.speed, pt.address = p.Speed, p.Address
	// Traccar's ingest stores "motion" on every position (MotionHandler);
	// this rule fills it in for positions stored without it.
	if m, ok := flag(a["motion"]); ok {
		pt.motion = m
	} else {
		pt.motion = p.Speed > speedThreshold
	}
	pt.distance, _ = num("distance")
	pt.totalDistance, _ = num("totalDistance")
	pt.odometer, _ = num("odometer")
	var h float64
	h, pt.hasHours = num("hours")
	pt.hours = javaLong(h)
	pt.fuelUsed, pt.hasFuelUsed = num("fuelUsed")
	pt.fuel, pt.hasFuel = num("fuel")
	pt.fuelLevel, pt.hasFuelLevel = num("fuelLevel")
	pt.ignition, pt.hasIgnition = flag(a["ignition"])
	if v, ok := a["driverUniqueId"]; ok && v != nil {
		s := text(v)
		pt.driver = &s
	}
	return pt
}

// flag reads a boolean attribute as Traccar's getBoolean does: a bool, or
// a string that is "true" in any case.
func flag(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case nil:
		return false, false
	case string:
		return strings.EqualFold(x, "true"), true
	}
	return false, true
}

// builder makes items for one device (Traccar's ReportUtils.calculateTrip,
// calculateStop and calculateFuel).
type builder struct {
	device         *model.Device
	ignoreOdometer bool
	fuelCapacity   float64
	hasCapacity    bool
}

func newBuilder(cfg Config, device *model.Device) builder {
	b := builder{device: device, ignoreOdometer: cfg.IgnoreOdometer}
	if v, ok := device.Attributes["fuelCapacity"]; ok && v != nil {
		b.fuelCapacity, _ = number(v)
		b.hasCapacity = true
	}
	return b
}

// base fills what trips, stops and summaries share. The odometers are the
// device's odometer when both ends report a non-zero one (and it is not
// ignored), else the server's totalDistance (PositionUtil.calculateDistance
// makes the same choice for the distance).
func (b builder) base(first, last *point) Base {
	r := Base{
		DeviceID: b.device.ID, DeviceName: b.device.Name,
		SpentFuel: b.fuel(first, last),
		StartTime: first.time, EndTime: last.time,
	}
	if !b.ignoreOdometer && first.odometer != 0 && last.odometer != 0 {
		r.StartOdometer, r.EndOdometer = first.odometer, last.odometer
	} else {
		r.StartOdometer, r.EndOdometer = first.totalDistance, last.totalDistance
	}
	return r
}

// fuel prefers a fuel-used counter, then the fuel level in liters, then
// the level in percent of the device's fuelCapacity attribute.
func (b builder) fuel(first, last *point) float64 {
	switch {
	case first.hasFuelUsed && last.hasFuelUsed:
		return last.fuelUsed - first.fuelUsed
	case first.hasFuel && last.hasFuel:
		return first.fuel - last.fuel
	case first.hasFuelLevel && last.hasFuelLevel && b.hasCapacity:
		return (first.fuelLevel - last.fuelLevel) / 100 * b.fuelCapacity
	}
	return 0
}

func (b builder) trip(start, end *point, maxSpeed float64, driverName func(string) string) Trip {
	t := Trip{
		Base:            b.base(start, end),
		StartPositionID: start.id, EndPositionID: end.id,
		StartLat: start.lat, StartLon: start.lon, EndLat: end.lat, EndLon: end.lon,
		StartAddress: start.address, EndAddress: end.address,
		Duration: end.ms - start.ms,
	}
	t.Distance = t.EndOdometer - t.StartOdometer
	t.MaxSpeed = maxSpeed
	if t.Duration > 0 {
		t.AverageSpeed = t.Distance * 1000 / float64(t.Duration) * knotsPerMps
	}
	t.DriverUniqueID = start.driver
	if t.DriverUniqueID == nil {
		t.DriverUniqueID = end.driver
	}
	if t.DriverUniqueID != nil && driverName != nil {
		if name := driverName(*t.DriverUniqueID); name != "" {
			t.DriverName = &name
		}
	}
	return t
}

func (b builder) stop(start, end *point) Stop {
	s := Stop{
		Base:       b.base(start, end),
		PositionID: start.id, Latitude: start.lat, Longitude: start.lon,
		Address:  start.address,
		Duration: end.ms - start.ms,
	}
	if start.hasHours && end.hasHours {
		s.EngineHours = end.hours - start.hours
	}
	return s
}
