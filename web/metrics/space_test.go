package metrics_test

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/gofiber/fiber/v2"
)

// fleetd_data_free_bytes is the core's view of the data directory's free
// space at scrape time, -1 when it cannot be read.
func TestDataFreeBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		free uint64
		err  error
		want float64
	}{
		{"read", 123_456_789_012, nil, 123_456_789_012},
		{"a full disk", 0, nil, 0},
		{"unreadable", 0, errors.New("statfs failed"), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := metrics.New("v1")
			watched(t, m, app.Options{BcryptCost: 4, Space: ops.Options{
				Statfs: func() (uint64, uint64, error) { return tc.free, 200 << 30, tc.err }}})
			f := fiber.New(fiber.Config{DisableStartupMessage: true})
			f.Get("/metrics", m.Handler(""))
			_, body := get(t, serveLoopback(t, f)+"/metrics")
			if got := sample(t, body, "fleetd_data_free_bytes"); got != tc.want {
				t.Errorf("fleetd_data_free_bytes = %v, want %v", got, tc.want)
			}
		})
	}
}
