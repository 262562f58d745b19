package metrics_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/gofiber/fiber/v2"
)

// sample returns the value of the one sample named series (labels
// included), failing when it is absent.
func sample(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	t.Fatalf("no sample %s in\n%.2000s", series, body)
	return 0
}

// Every Batch call is counted once in fleetd_store_commit_calls, whatever
// the grouping; sequential calls each get a commit of their own.
func TestStoreCommitSeries(t *testing.T) {
	for _, tc := range []struct {
		name       string
		calls      int
		concurrent bool
	}{
		{"sequential", 5, false},
		{"concurrent", 40, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t, "")
			base := fx.serveLoopback(t)
			_, before := get(t, base+"/metrics")
			var wg sync.WaitGroup
			for range tc.calls {
				batch := func() {
					if err := fx.db.Batch(func(model.Tx) error { return nil }); err != nil {
						t.Error(err)
					}
				}
				if tc.concurrent {
					wg.Go(batch)
				} else {
					batch()
				}
			}
			wg.Wait()
			_, after := get(t, base+"/metrics")
			delta := func(series string) float64 { return sample(t, after, series) - sample(t, before, series) }
			if got := delta("fleetd_store_commit_calls_sum"); got != float64(tc.calls) {
				t.Errorf("calls counted = %v, want %d", got, tc.calls)
			}
			commits := delta("fleetd_store_commit_calls_count")
			if commits < 1 || commits > float64(tc.calls) || !tc.concurrent && commits != float64(tc.calls) {
				t.Errorf("commits = %v for %d calls", commits, tc.calls)
			}
			if got := delta("fleetd_store_commit_seconds_count"); got != commits {
				t.Errorf("commit durations = %v, want one per commit (%v)", got, commits)
			}
			if got := delta(`fleetd_store_commit_calls_bucket{le="+Inf"}`); got != commits {
				t.Errorf("+Inf bucket = %v, want %v", got, commits)
			}
		})
	}
}

// Before Watch there is no core to read: its series are left out rather
// than reported as zeros, and the rest is served.
func TestUnwatchedCoreIsLeftOut(t *testing.T) {
	m := metrics.New("v1")
	openStore(t, m)
	f := fiber.New(fiber.Config{DisableStartupMessage: true})
	f.Get("/metrics", m.Handler(""))
	status, body := get(t, serveLoopback(t, f)+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics = %d %s", status, body)
	}
	if strings.Contains(body, "fleetd_positions_stored_total") || strings.Contains(body, "fleetd_store_size_bytes") {
		t.Error("core series reported before Watch")
	}
	for _, want := range []string{"fleetd_build_info{", "fleetd_store_commit_calls_count ", "go_goroutines "} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
