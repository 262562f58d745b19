package ingest

import (
	"io"
	"log/slog"
	"testing"
	"time"

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

// typicalPosition is a position as the GT06 decoder and the ingest make it.
func typicalPosition() *model.Position {
	at := time.Date(2026, 11, 21, 10, 4, 5, 123456789, time.UTC)
	addr := "Main St 1, Springfield"
	return &model.Position{Base: model.Base{ID: 0}, DeviceID: 12, Protocol: "gt06", ServerTime: at, DeviceTime: at.Truncate(time.Second),
		FixTime: at.Truncate(time.Second), Valid: true, Latitude: 52.1234567, Longitude: -13.7654321, Altitude: 34.5,
		Speed: 23.4, Course: 181, Address: &addr, Accuracy: 0, GeofenceIDs: []int64{3, 1},
		Attributes: model.Attributes{"sat": 9, "ignition": true, "motion": true, "distance": 12.34, "totalDistance": 123456.78,
			"hours": int64(1234), "index": uint8(12), "batteryLevel": 80, "alarm": "sos", "io200": int32(-1), "adc1": uint16(3),
			"odometer": uint32(5), "mcc": uint64(262), "fuel": nil},
		// as the GT06 decoder makes it from the serving cell
		Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{
			{"mobileCountryCode": 208, "mobileNetworkCode": 1, "locationAreaCode": 11020, "cellId": int64(50081)}}}}
}
