package storage

import (
	"bytes"
	"time"

	"github.com/fleetd/fleetd/app"
)

var positions = series[app.Position, *app.Position]{
	data:      bucketPositions,
	ids:       bucketPositionIDs,
	what:      "position",
	timeField: "fixTime",
	deviceOf:  func(p *app.Position) int64 { return p.DeviceID },
	timeOf:    func(p *app.Position) time.Time { return p.FixTime },
	encoded:   func(p *app.Position) []byte { return p.Encoded },
}

// The latest index always points at the last key of the device's range:
// AddPosition moves it to a fix that is not older, and that fix has the
// largest id, so it sorts last among equal times.

func (t *tx) AddPosition(p *app.Position) (bool, error) {
	key, err := positions.add(t.btx, p)
	if err != nil {
		return false, err
	}
	latest := t.btx.Bucket(bucketLatest)
	device := key[:8]
	if cur := latest.Get(device); len(cur) == seriesKeyLen && bytes.Compare(key[8:16], cur[8:16]) < 0 {
		return false, nil
	}
	return true, latest.Put(device, key)
}

func (t *tx) Position(id int64) (*app.Position, error) { return positions.get(t.btx, id) }

func (t *tx) LatestPosition(deviceID int64) (*app.Position, error) {
	return positions.atKey(t.btx, t.btx.Bucket(bucketLatest).Get(idKey(deviceID)))
}

func (t *tx) Positions(deviceID int64, from, to time.Time, fn func(*app.Position) bool) error {
	return positions.scan(t.btx, deviceID, from, to, fn)
}

func (t *tx) DeletePositions(deviceID int64, from, to time.Time) (int, error) {
	n, err := positions.deleteRange(t.btx, deviceID, from, to)
	if err != nil || n == 0 {
		return n, err
	}
	latest, device := t.btx.Bucket(bucketLatest), idKey(deviceID)
	if last := positions.lastKey(t.btx, deviceID); last != nil {
		return n, latest.Put(device, last)
	}
	return n, latest.Delete(device)
}
