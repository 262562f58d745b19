package ops

import (
	"errors"
	"fmt"

	"github.com/fleetd/fleetd/app/model"
)

// Options watch the free space of the file system that holds the data
// directory (the store and uploaded files).
type Options struct {
	// Statfs reports the bytes fleetd may still write there (without the
	// blocks reserved for root) and the file system's size; nil: not
	// watched, so no warning and no early refusal of uploads.
	Statfs func() (free, total uint64, err error)
	// StoreSize reports the store file's size (the outlook shows it);
	// nil: not shown.
	StoreSize func() (int64, error)
	// Low is the free space in bytes below which the dashboard warns
	// (default DefaultLowSpace).
	Low int64
}

// DefaultLowSpace is 1 GiB: at about 760 bytes a position, days of a large
// fleet's history (200 vehicles, a fix a minute: 110 MB a day), time to act
// before positions go unstored.
const DefaultLowSpace = 1 << 30

// Space is the free space of the data directory's file system.
type Space struct {
	Free, Total uint64 // bytes
	// Low reports Free below SpaceOptions.Low.
	Low bool
}

var errSpaceUnwatched = errors.New("free space is not watched")

// Space reports the free space of the data directory's file system.
func (ops *Service) Space() (Space, error) {
	o := ops.opts
	if o.Statfs == nil {
		return Space{}, errSpaceUnwatched
	}
	free, total, err := o.Statfs()
	if err != nil {
		return Space{}, fmt.Errorf("free space of the data directory: %w", err)
	}
	if o.Low <= 0 {
		o.Low = DefaultLowSpace
	}
	return Space{Free: free, Total: total, Low: free < uint64(o.Low)}, nil
}

// RoomFor refuses at once a write of size bytes the disk has not that much
// room for. When the free space is unknown the write goes ahead, and fails
// with ErrNoSpace if the disk fills up.
func (ops *Service) RoomFor(size int64) error {
	if s, err := ops.Space(); err == nil && size > 0 && s.Free < uint64(size) {
		return &model.Error{Class: model.ClassNoSpace, Message: model.ErrNoSpace.Message,
			Description: fmt.Sprintf("The server's disk has no room for %d bytes; try again once the administrator has made room", size)}
	}
	return nil
}
