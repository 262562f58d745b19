package ingest

import (
	"io"
	"log/slog"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// The sanitizer runs on every position on the devices' goroutines: it must
// cost little beside the ingest's encoding (about 3.5 us).
func BenchmarkSanitize(b *testing.B) {
	c := &Service{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	d, p := &model.Device{}, typicalPosition()
	b.ReportAllocs()
	for b.Loop() {
		c.sanitize(d, p)
	}
	for field, n := range c.Stats().FieldsRemoved {
		if n != 0 {
			b.Fatalf("a typical position lost %s", field)
		}
	}
}
