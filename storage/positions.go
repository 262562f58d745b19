package storage

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

var positions = series[model.Position, *model.Position]{
	data:      bucketPositions,
	ids:       bucketPositionIDs,
	what:      "position",
	timeField: "fixTime",
	deviceOf:  func(p *model.Position) int64 { return p.DeviceID },
	timeOf:    func(p *model.Position) time.Time { return p.FixTime },
	encoded:   func(p *model.Position) []byte { return p.Encoded },
}

func (t *tx) AddPosition(p *model.Position) error {
	_, err := positions.add(t.btx, p)
	return err
}

func (t *tx) Position(id int64) (*model.Position, error) { return positions.get(t.btx, id) }

// LatestPosition is the last key of the device's range: its fix is the
// newest, and among equal fixes it has the largest id (it arrived last).
func (t *tx) LatestPosition(deviceID int64) (*model.Position, error) {
	return positions.atKey(t.btx, positions.lastKey(t.btx, deviceID))
}

func (t *tx) Positions(deviceID int64, from, to time.Time, fn func(*model.Position) bool) error {
	return positions.scan(t.btx, deviceID, from, 0, to, fn)
}

func (t *tx) PositionsAfter(last *model.Position, to time.Time, fn func(*model.Position) bool) error {
	return positions.scan(t.btx, last.DeviceID, last.FixTime, last.ID+1, to, fn)
}

func (t *tx) DeletePositions(deviceID int64, from, to time.Time, limit int) (int, error) {
	return positions.deleteRange(t.btx, deviceID, from, to, limit)
}
