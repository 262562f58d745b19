package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// addRoute stores n positions of device, one a second from t10, as a
// tracker's day would (the fixture's d2 has none).
func addRoute(t testing.TB, e *env, device string, n int) {
	t.Helper()
	for k := 0; k < n; k += 10000 {
		must(t, e.DB.Update(func(tx model.Tx) error {
			for i := k; i < min(n, k+10000); i++ {
				at := t10.Add(time.Duration(i) * time.Second)
				p := &model.Position{DeviceID: e.IDs[device], Protocol: "gt06", ServerTime: at, DeviceTime: at, FixTime: at,
					Valid: true, Latitude: 52.5 + float64(i)*1e-5, Longitude: 13.4, Speed: 12.5,
					Attributes: model.Attributes{"sat": 9, "ignition": true, "distance": 12.5, "totalDistance": 1234567.8}}
				if err := tx.AddPosition(p); err != nil {
					return err
				}
			}
			return nil
		}))
	}
}

// getRange fetches d's range over a real connection, as a client would.
func getRange(t testing.TB, e *env, base string, cookie *http.Cookie, device string, from, to time.Time) *http.Response {
	t.Helper()
	url := fmt.Sprintf("http://%s/api/positions?deviceId=%d&from=%s&to=%s", base, e.IDs[device],
		from.Format(time.RFC3339), to.Format(time.RFC3339))
	req, err := http.NewRequest("GET", url, nil)
	must(t, err)
	req.AddCookie(cookie)
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// A device's range is streamed: longer than the core's read chunks, it is
// one JSON array with every position once, in time order, as the list
// form renders it.
func TestPositionRangeStreamed(t *testing.T) {
	e := newEnv(t)
	addRoute(t, e, "d2", 2500)
	base := webtest.Serve(t, e.App)
	cookie := e.Login(t, "admin")

	res := getRange(t, e, base, cookie, "d2", t10, t10.Add(24*time.Hour))
	body, err := io.ReadAll(res.Body)
	must(t, err)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var got []model.Position
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("not one JSON array: %v", err)
	}
	list, err := e.Core.Fleet.Positions(model.System(), fleet.PositionQuery{DeviceID: e.IDs["d2"], From: t10, To: t10.Add(24 * time.Hour)})
	must(t, err)
	if len(got) != 2500 || len(list) != 2500 {
		t.Fatalf("%d positions streamed, %d listed; want 2500", len(got), len(list))
	}
	for i := range got {
		if got[i].ID != list[i].ID || !got[i].FixTime.Equal(list[i].FixTime) || got[i].GeofenceIDs == nil {
			t.Fatalf("position %d: %+v, want %+v with geofenceIds []", i, got[i], list[i])
		}
	}

	res = getRange(t, e, base, cookie, "d2", t10.Add(-time.Hour), t10.Add(-time.Second))
	if body, _ := io.ReadAll(res.Body); res.StatusCode != 200 || string(body) != "[]" {
		t.Errorf("empty range: %d %q, want 200 []", res.StatusCode, body)
	}
	res = getRange(t, e, base, e.Login(t, "user1"), "d2", t10, t10.Add(time.Hour))
	if body, _ := io.ReadAll(res.Body); res.StatusCode != 404 || !json.Valid(body) {
		t.Errorf("invisible device: %d %q, want 404 with the error body", res.StatusCode, body)
	}
}

// BenchmarkPositionRange downloads a 100,000-position route over a real
// connection: positions/s and the server's peak Go heap, which stays flat
// however long the route is.
func BenchmarkPositionRange(b *testing.B) {
	const n = 100000
	e := newEnv(b)
	addRoute(b, e, "d2", n)
	base := webtest.Serve(b, e.App)
	cookie := e.Login(b, "admin")
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	for b.Loop() {
		res := getRange(b, e, base, cookie, "d2", t10, t10.Add(48*time.Hour))
		if _, err := io.Copy(io.Discard, res.Body); err != nil || res.StatusCode != 200 {
			b.Fatal(res.StatusCode, err)
		}
	}
	close(done)
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}
