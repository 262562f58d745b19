package ingest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// Device attributes that override the configured retention for one device:
// a number of days (30, 0.5) or a duration string ("90d", "36h"); 0 keeps
// that device's records forever.
const (
	AttrRetentionPositions = "retention.positions"
	AttrRetentionEvents    = "retention.events"
)

// Pruner deletes old time-series records in small transactions (the
// bbolt store implements it).
type Pruner interface {
	// PrunePositions deletes at most limit of the device's positions dated
	// before cutoff, never its latest one, and reports how many it deleted.
	PrunePositions(deviceID int64, cutoff time.Time, limit int) (int, error)
	PruneEvents(deviceID int64, cutoff time.Time, limit int) (int, error)
	// PruneMedia deletes at most limit of the media files whose keys
	// start with prefix and sort below bound.
	PruneMedia(prefix, bound string, limit int) (int, error)
}

// RetentionOptions say how long records are kept; zero keeps them forever.
// Media, when set, keeps device files for less time than their positions
// (never more); zero deletes them with their positions.
type RetentionOptions struct {
	Positions, Events, Media time.Duration
	// Chunk bounds one transaction; zero means DefaultRetentionChunk.
	Chunk int
}

// Pruned counts what one retention pass deleted.
type Pruned struct {
	Positions, Events, Media int
}

// ParseRetention reads a retention window: "90d" (days), a Go duration
// ("720h", "90m") or "0" (keep forever). Negative windows are refused.
func ParseRetention(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	var err error
	switch {
	case s == "0":
		return 0, nil
	case strings.HasSuffix(s, "d"):
		var days float64
		days, err = strconv.ParseFloat(strings.TrimSuffix(s, "d"), 64)
		d = time.Duration(days * float64(24*time.Hour))
		if err == nil && (days < 0 || days > 100*365) {
			err = errors.New("out of range")
		}
	default:
		d, err = time.ParseDuration(s)
	}
	if err == nil && d < 0 {
		err = errors.New("negative")
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a retention window (like 90d, 720h or 0 to keep forever): %v", s, err)
	}
	return d, nil
}

// retentionOverride reads a device's retention attribute: absent means
// the configured window applies.
func retentionOverride(attrs model.Attributes, key string) (d time.Duration, set bool, err error) {
	v, ok := attrs[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	if s, isString := v.(string); isString {
		d, err = ParseRetention(s)
		return d, err == nil, err
	}
	switch v.(type) {
	case float64, float32, int, int64, uint64:
		days := model.Number(v)
		if days < 0 || days > 100*365 {
			return 0, false, fmt.Errorf("%v days is out of range", v)
		}
		return time.Duration(days * float64(24*time.Hour)), true, nil
	}
	return 0, false, fmt.Errorf("%v is neither a number of days nor a duration", v)
}

// retentionTarget is one device's pruning work.
type retentionTarget struct {
	id                       int64
	positions, events, media time.Duration // 0: keep
}

// ApplyRetention deletes, for every device, the positions (with the files
// the device sent: photos, voice messages) and events older
// than its window, in chunks of at most opts.Chunk records per
// transaction so concurrent ingest keeps flowing. A device attribute
// (AttrRetentionPositions, AttrRetentionEvents) overrides the window; an
// invalid one is logged and the configured window used. Cancelling ctx
// stops between chunks.
func (ig *Service) ApplyRetention(ctx context.Context, p Pruner, opts RetentionOptions) (Pruned, error) {
	var done Pruned
	targets, err := ig.retentionTargets(opts)
	if err != nil {
		return done, err
	}
	chunk := orDefaultChunk(opts.Chunk)
	now := ig.now()
	// A device's files (photos, voice messages) go with its positions, or sooner (opts.Media).
	pruneMedia := func(id int64, cutoff time.Time, limit int) (int, error) {
		return p.PruneMedia(fleet.MediaKey(id, ""), fleet.MediaBefore(id, cutoff), limit)
	}
	for _, t := range targets {
		for _, job := range []struct {
			window time.Duration
			prune  func(int64, time.Time, int) (int, error)
			count  *int
		}{
			{t.positions, p.PrunePositions, &done.Positions},
			{t.events, p.PruneEvents, &done.Events},
			{t.media, pruneMedia, &done.Media},
		} {
			if job.window <= 0 {
				continue
			}
			cutoff := now.Add(-job.window)
			for {
				if err := ctx.Err(); err != nil {
					return done, err
				}
				n, err := job.prune(t.id, cutoff, chunk)
				*job.count += n
				if err != nil {
					return done, fmt.Errorf("retention of device %d: %w", t.id, err)
				}
				if n < chunk {
					break
				}
			}
		}
	}
	return done, nil
}

func orDefaultChunk(n int) int {
	if n <= 0 {
		return fleet.DefaultRetentionChunk
	}
	return n
}

// retentionTargets lists every device with its windows, read in one short
// read transaction.
func (ig *Service) retentionTargets(opts RetentionOptions) ([]retentionTarget, error) {
	var out []retentionTarget
	err := ig.store.View(func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool {
			t := retentionTarget{id: d.ID, positions: opts.Positions, events: opts.Events}
			for _, o := range []struct {
				key string
				win *time.Duration
			}{{AttrRetentionPositions, &t.positions}, {AttrRetentionEvents, &t.events}} {
				w, set, err := retentionOverride(d.Attributes, o.key)
				if err != nil {
					ig.log.Warn("device retention attribute ignored", "deviceId", d.ID, "attribute", o.key, "err", err)
				} else if set {
					*o.win = w
				}
			}
			t.media = t.positions
			if opts.Media > 0 && (t.media == 0 || opts.Media < t.media) {
				t.media = opts.Media
			}
			if t.positions > 0 || t.events > 0 || t.media > 0 {
				out = append(out, t)
			}
			return true
		})
	})
	return out, err
}

// RunRetention applies retention now and then every interval until ctx
// ends, logging what each pass deleted.
func (ig *Service) RunRetention(ctx context.Context, p Pruner, opts RetentionOptions, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		began := time.Now()
		n, err := ig.ApplyRetention(ctx, p, opts)
		switch {
		case errors.Is(err, context.Canceled):
			return
		case err != nil:
			ig.log.Error("retention pass failed", "err", err, "positions", n.Positions, "events", n.Events, "media", n.Media)
		case n.Positions+n.Events+n.Media > 0:
			ig.log.Info("retention pass", "positions", n.Positions, "events", n.Events, "media", n.Media, "ms", time.Since(began).Milliseconds())
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
