package storage

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

var events = series[model.Event, *model.Event]{
	data:      bucketEvents,
	ids:       bucketEventIDs,
	what:      "event",
	timeField: "eventTime",
	deviceOf:  func(e *model.Event) int64 { return e.DeviceID },
	timeOf:    func(e *model.Event) time.Time { return e.EventTime },
}

func (t *tx) AddEvent(e *model.Event) error {
	_, err := events.add(t.btx, e)
	return err
}

func (t *tx) Event(id int64) (*model.Event, error) { return events.get(t.btx, id) }

func (t *tx) Events(deviceID int64, from, to time.Time, fn func(*model.Event) bool) error {
	return events.scan(t.btx, deviceID, from, 0, to, fn)
}

func (t *tx) EventsNewest(deviceID int64, from, to time.Time, fn func(*model.Event) bool) error {
	return events.scanNewest(t.btx, deviceID, from, to, fn)
}

func (t *tx) DeleteEvents(deviceID int64, limit int) (int, error) {
	return events.deleteRange(t.btx, deviceID, minKeyTime, maxKeyTime, limit)
}
