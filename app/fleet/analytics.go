package fleet

import (
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones work on hosts without a zoneinfo database

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// AlarmCounts counts alarm events by kind and by day.
type AlarmCounts struct {
	Total int `json:"total"`
	// TimeData maps a day (YYYY-MM-DD in the server's time zone) to a count.
	TimeData map[string]int `json:"timeData"`
	// Alarms maps an alarm kind (vibration, powerCut, ...) to a count.
	Alarms map[string]int `json:"alarms"`
}

func newAlarmCounts() AlarmCounts {
	return AlarmCounts{TimeData: map[string]int{}, Alarms: map[string]int{}}
}

func (a *AlarmCounts) add(kind, day string) {
	a.Total++
	a.Alarms[kind]++
	a.TimeData[day]++
}

// VehicleAlarms is one device's part of AlarmAnalytics.
type VehicleAlarms struct {
	DeviceID model.TextID `json:"deviceId"`
	AlarmCounts
}

// AlarmAnalytics answers I1: the devices' alarms in total and per device.
type AlarmAnalytics struct {
	AlarmCounts
	VehicleData []VehicleAlarms `json:"vehicleData"`
}

// MaxAnalyticsRange bounds I1's time range: it reads every event in it.
const MaxAnalyticsRange = 366 * 24 * time.Hour

// AlarmAnalytics counts the alarm events of the devices (every device the
// actor sees when none are given; an id it cannot see is not found) in
// [from, to]. Every device asked for has an entry, with zero counts when
// it raised no alarm.
func (fl *Service) AlarmAnalytics(actor *model.User, deviceIDs []int64, from, to time.Time) (*AlarmAnalytics, error) {
	if err := checkRange(from, to); err != nil {
		return nil, err
	}
	if to.Sub(from) > MaxAnalyticsRange {
		return nil, model.Invalid("the range is at most %d days", int(MaxAnalyticsRange/(24*time.Hour)))
	}
	out := &AlarmAnalytics{AlarmCounts: newAlarmCounts(), VehicleData: []VehicleAlarms{}}
	var devices []int64
	var zone *time.Location
	err := fl.store.View(func(tx model.Tx) (err error) {
		devices, err = visibleDevices(access.Guard{Tx: tx, Actor: actor}, deviceIDs)
		zone = serverZone(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// A read transaction per device: one over a year of a whole fleet would
	// keep the store file from growing (and so the ingest waiting) while it
	// decodes every event.
	for _, id := range devices {
		v := VehicleAlarms{DeviceID: model.TextID(id), AlarmCounts: newAlarmCounts()}
		err := fl.store.View(func(tx model.Tx) error {
			return tx.Events(id, from, to, func(e *model.Event) bool {
				kind, _ := e.Attributes["alarm"].(string)
				if e.Type != model.EventAlarm || kind == "" {
					return true
				}
				day := e.EventTime.In(zone).Format(time.DateOnly)
				v.add(kind, day)
				out.add(kind, day)
				return true
			})
		})
		if err != nil {
			return nil, err
		}
		out.VehicleData = append(out.VehicleData, v)
	}
	return out, nil
}

// ZoneAttribute is the server attribute (PUT /api/server) naming the IANA
// time zone of the extended API's days and times, as Traccar's reports
// read it; UTC when unset or unknown.
const ZoneAttribute = "timezone"

var zones sync.Map // name -> *time.Location

// serverZone is the configured time zone.
func serverZone(tx model.Tx) *time.Location {
	s, err := tx.Server()
	if err != nil {
		return time.UTC
	}
	name, _ := s.Attributes[ZoneAttribute].(string)
	return loadZone(name)
}

func loadZone(name string) *time.Location {
	name = strings.TrimSpace(name)
	if name == "" {
		return time.UTC
	}
	if z, ok := zones.Load(name); ok {
		return z.(*time.Location)
	}
	z, err := time.LoadLocation(name)
	if err != nil {
		z = time.UTC
	}
	zones.Store(name, z)
	return z
}
