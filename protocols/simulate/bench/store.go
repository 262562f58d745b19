package bench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// store measures the raw append rate of the store: o.Devices goroutines,
// as many as the connections, each appending copies of template (a
// position fleetd stored, so the record is the same size) through
// storage.Batch, one position per call as the ingest does, for o.Measure.
// As in the ingest, the JSON is encoded on the caller's goroutine, and
// Batch's group commit takes one fsync per group.
func (o *Options) store(ctx context.Context, template *model.Position) (Store, error) {
	var s Store
	if template == nil {
		return s, errors.New("no position stored by fleetd to copy")
	}
	dir, err := os.MkdirTemp(o.Dir, "fleetd-bench-store-")
	if err != nil {
		return s, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fleetd.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		return s, err
	}
	defer db.Close()
	record, err := json.Marshal(template)
	if err != nil {
		return s, err
	}
	s.Record = len(record)
	ctx, cancel := context.WithTimeout(ctx, o.Measure)
	defer cancel()
	var n atomic.Int64
	var failed atomic.Pointer[error]
	start := time.Now()
	var wg sync.WaitGroup
	for g := range o.Devices {
		wg.Go(func() {
			base := template.FixTime
			for i := 0; ctx.Err() == nil; i++ {
				p := *template
				p.ID, p.DeviceID = 0, int64(g+1)
				p.FixTime = base.Add(time.Duration(i) * time.Second)
				p.DeviceTime, p.ServerTime = p.FixTime, p.FixTime
				err := db.Batch(func(tx model.Tx) error { return tx.AddPosition(&p) })
				if err != nil {
					failed.CompareAndSwap(nil, &err)
					cancel()
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if e := failed.Load(); e != nil {
		return s, *e
	}
	s.Positions = n.Load()
	s.PerSec = float64(s.Positions) / elapsed.Seconds()
	if err := db.Close(); err != nil {
		return s, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return s, err
	}
	s.FileBytes = st.Size()
	return s, nil
}
