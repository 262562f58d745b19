package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// TestRepairLoad measures the start-up repair on a store shaped like the
// one 14 crashes under load left (issue 11): REPAIR_LOAD_DEVICES devices
// (35,438 in the issue) with 5 positions each; 73 % online with positionId
// 0 and lastUpdate null, 21 % a record behind its positions, the rest
// consistent. It reports
// how long serve takes to answer, how long the repair runs, and the latency
// of device reports (OsmAnd over HTTP) while it runs and after.
//
//	REPAIR_LOAD_DEVICES=35438 go test -run TestRepairLoad -v -timeout 10m .
func TestRepairLoad(t *testing.T) {
	total, _ := strconv.Atoi(os.Getenv("REPAIR_LOAD_DEVICES"))
	if total == 0 {
		t.Skip("set REPAIR_LOAD_DEVICES to run the measurement")
	}
	e := newEnv(t, crashConfig+anyPorts)
	began := time.Now()
	db, err := storage.Open(filepath.Join(e.dir, "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	const positions, chunk = 5, 1000
	for first := 0; first < total; first += chunk {
		err := db.Update(func(tx model.Tx) error {
			for i := first; i < min(first+chunk, total); i++ {
				d := &model.Device{Name: fmt.Sprint("dev-", i), UniqueID: fmt.Sprint(860000000000000 + i), Attributes: model.Attributes{}}
				if err := tx.Devices().Create(d); err != nil {
					return err
				}
				var ids []int64
				for k := range positions {
					at := now.Add(-2*time.Hour + time.Duration(k)*time.Second)
					p := &model.Position{DeviceID: d.ID, FixTime: at, ServerTime: at, Valid: true, Latitude: 54.9, Longitude: 24.1,
						Attributes: model.Attributes{"sat": 9, "ignition": true}}
					if err := tx.AddPosition(p); err != nil {
						return err
					}
					ids = append(ids, p.ID)
				}
				switch share := i * 100 / total; {
				case share < 73: // the issue: 25,936 of 35,438 with positionId 0
					d.Status = model.StatusOnline
				case share < 94: // and 7,441 with a stale one
					at := now.Add(-2 * time.Hour)
					d.Status, d.PositionID, d.LastUpdate = model.StatusOnline, ids[0], &at
				default:
					at := now.Add(-2*time.Hour + (positions-1)*time.Second)
					d.Status, d.PositionID, d.LastUpdate = model.StatusOffline, ids[positions-1], &at
				}
				if err := tx.Devices().Put(d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	size, _ := db.Size()
	db.Close()
	t.Logf("store: %d devices, %d positions, %.0f MB, built in %s", total, total*positions, float64(size)/1e6, time.Since(began).Round(time.Millisecond))

	hold := make(chan struct{})
	s := e.serve(t, func(c *cli) { c.repairing = func() { <-hold } })
	t.Logf("serve answered after %v ms (startupMs)", s.logged(t, "fleetd started")["startupMs"])

	// One device reports over HTTP as fast as its answers come, while the
	// repair runs and then as long again after it.
	report := func(stop func() bool) []time.Duration {
		var took []time.Duration
		for i := 0; !stop(); i++ {
			at := time.Now().Unix()
			start := time.Now()
			resp, err := http.Get(fmt.Sprintf("http://%s/?id=%d&lat=54.9&lon=24.1&timestamp=%d", s.Devices["osmand"], 860000000000000+i%total, at))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			took = append(took, time.Since(start))
		}
		return took
	}
	close(hold)
	repairing := time.Now()
	during := report(func() bool { return hasLog(s, "start-up repair of device records done") })
	repairTook := time.Since(repairing)
	done := s.logged(t, "start-up repair of device records done")
	t.Logf("repair: %v devices changed in %v ms", done["repaired"], done["tookMs"])
	afterEnd := time.Now().Add(repairTook)
	after := report(func() bool { return time.Now().After(afterEnd) })
	t.Logf("reports during the repair: %s", latencies(during))
	t.Logf("reports after the repair:  %s", latencies(after))
}

func hasLog(s *serving, msg string) bool {
	return strings.Contains(s.log.String(), `"msg":"`+msg+`"`)
}

// latencies summarises request durations: count, median, 99th percentile, max.
func latencies(took []time.Duration) string {
	if len(took) == 0 {
		return "none"
	}
	slices.Sort(took)
	at := func(q float64) time.Duration { return took[min(len(took)-1, int(q*float64(len(took))))] }
	return fmt.Sprintf("%d reports, p50 %s, p99 %s, max %s", len(took),
		at(0.5).Round(time.Microsecond), at(0.99).Round(time.Microsecond), took[len(took)-1].Round(time.Microsecond))
}
