package metrics_test

import (
	"bytes"
	"encoding/hex"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/protocols/gt06"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/gofiber/fiber/v2"
)

type fixture struct {
	core *app.Core
	db   *storage.DB
	m    *metrics.Metrics
	f    *fiber.App
	gt06 string // the gt06 listener's address
}

// newFixture runs a core on a real store with a gt06 listener and an HTTP
// app wired as fleetd serve wires them; the app believes proxyHeader, when
// given, from a trusted proxy at 127.0.0.1.
func newFixture(t *testing.T, token string, proxyHeader ...string) *fixture {
	t.Helper()
	m := metrics.New("v9.9.9")
	db, core := watched(t, m, app.Options{BcryptCost: 4})
	l, err := catalog.Start("127.0.0.1", map[string]int{"gt06": 0}, core.Ingest,
		protocols.Options{AckLatency: m.ObserveAck, Ingested: m.ObserveIngest})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	m.Listeners(l.Stats)
	cfg := fiber.Config{DisableStartupMessage: true, ErrorHandler: httpx.ErrorHandler(slog.Default())}
	if len(proxyHeader) > 0 && proxyHeader[0] != "" {
		cfg.EnableTrustedProxyCheck, cfg.TrustedProxies, cfg.ProxyHeader = true, []string{"127.0.0.1"}, proxyHeader[0]
	}
	f := fiber.New(cfg)
	f.Use(m.Middleware())
	f.Get("/metrics", m.Handler(token))
	f.Get("/things/:id", func(c *fiber.Ctx) error { return c.SendString("thing") })
	return &fixture{core: core, db: db, m: m, f: f, gt06: l.Addrs["gt06"].String()}
}

// watched is a core with opts on a real store, both watched by m.
func watched(t *testing.T, m *metrics.Metrics, opts app.Options) (*storage.DB, *app.Core) {
	t.Helper()
	db := openStore(t, m)
	core := app.New(db, opts)
	m.Watch(core, db)
	return db, core
}

// openStore opens a real store whose group commits m observes.
func openStore(t *testing.T, m *metrics.Metrics) *storage.DB {
	t.Helper()
	db := storagetest.Open(t, storage.Options{OnCommit: m.ObserveCommit})
	return db
}

// serveLoopback serves the app on 127.0.0.1 and returns its base URL.
func (fx *fixture) serveLoopback(t *testing.T) string { return serveLoopback(t, fx.f) }

func serveLoopback(t *testing.T, f *fiber.App) string { return "http://" + webtest.Serve(t, f) }

// report sends a real GT06 login and location frame and waits for the ACK;
// the connection stays open for more frames.
func (fx *fixture) report(t *testing.T) net.Conn {
	t.Helper()
	if _, err := fx.core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = "truck", "864717003283581"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", fx.gt06)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	for _, step := range []struct{ frame, reply string }{
		{"78780D01086471700328358100093F040D0A", "78780501000955940d0a"},
		{"78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a", "787805120003903f0d0a"},
	} {
		frame, _ := hex.DecodeString(step.frame)
		conn.Write(frame)
		want, _ := hex.DecodeString(step.reply)
		got := make([]byte, len(want))
		if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("reply = %x (%v), want %x", got, err, want)
		}
	}
	return conn
}

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// sampleLine is one sample of the text format: name, optional labels, value.
var sampleLine = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$`)

func TestMetricsSeries(t *testing.T) {
	fx := newFixture(t, "")
	base := fx.serveLoopback(t)
	fx.report(t)
	// The listener records an ACK's latency once its write returns, which
	// can be after the device has read it.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, body := get(t, base+"/metrics"); strings.Contains(body, "\nfleetd_ack_latency_seconds_count{") {
			break
		}
	}
	get(t, base+"/things/42")
	get(t, base+"/things/43")
	get(t, base+"/no/such/path")
	status, body := get(t, base+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics = %d %s", status, body)
	}
	typed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			typed[strings.Fields(name)[0]] = true
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		if !sampleLine.MatchString(line) {
			t.Errorf("malformed sample line %q", line)
		}
	}
	for _, want := range []string{
		`fleetd_device_connections_open{protocol="gt06"} 1`,
		`fleetd_device_connections_total{protocol="gt06"} 1`,
		`fleetd_frames_received_total{protocol="gt06"} 2`,
		`fleetd_frames_failed_total{protocol="gt06",reason="decode"} 0`,
		`fleetd_frames_failed_total{protocol="gt06",reason="timeout"} 0`,
		`fleetd_frames_failed_total{protocol="gt06",reason="budget"} 0`,
		`fleetd_device_frame_bytes{protocol="gt06"} 0`,
		`fleetd_device_media_bytes 0`,
		`fleetd_positions_stored_total 1`,
		`fleetd_position_fields_removed_total{field="course"} 0`,
		`fleetd_device_ids_invalid_total 0`,
		`fleetd_ingest_batch_positions_count 1`,
		`fleetd_ingest_batch_positions_bucket{le="1"} 1`,
		`fleetd_ingest_commit_seconds_count 1`,
		`fleetd_ack_latency_seconds_count{protocol="gt06"} 1`,
		`fleetd_ack_latency_seconds_bucket{protocol="gt06",le="+Inf"} 1`,
		`fleetd_websocket_clients 0`,
		`fleetd_http_request_duration_seconds_count{method="GET",route="/things/:id"} 2`,
		`fleetd_http_request_duration_seconds_count{method="GET",route="unmatched"} 1`,
		`fleetd_build_info{goarch="` + runtime.GOARCH + `",goversion="` + runtime.Version() + `",version="v9.9.9"} 1`,
		`fleetd_store_size_bytes `,
		`fleetd_store_commit_calls_count `,
		`fleetd_store_commit_seconds_count `,
		`go_goroutines `,
		`go_memstats_heap_inuse_bytes `,
		`go_memstats_sys_bytes `,
	} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	for _, family := range []string{"fleetd_ack_latency_seconds", "fleetd_http_request_duration_seconds", "fleetd_store_size_bytes", "fleetd_frames_failed_total"} {
		if !typed[family] {
			t.Errorf("family %s has no TYPE line", family)
		}
	}
	sub := fx.core.Subscribe(model.System(), "")
	defer sub.Close()
	if _, body := get(t, base+"/metrics"); !strings.Contains(body, "\nfleetd_websocket_clients 1\n") {
		t.Error("a live subscriber is not counted")
	}
}

// Only loopback clients get the metrics without a token; a request that
// came through a proxy is not local; a configured token opens them to all.
func TestMetricsAccess(t *testing.T) {
	for _, tc := range []struct {
		name        string
		token       string
		loopback    bool
		header      []string
		want        int
		proxyHeader string // web.proxyHeader, with 127.0.0.1 a trusted proxy
	}{
		{"loopback", "", true, nil, http.StatusOK, ""},
		{"loopback through a proxy", "", true, []string{"X-Forwarded-For", "203.0.113.7"}, http.StatusForbidden, ""},
		{"loopback, Forwarded header", "", true, []string{"Forwarded", "for=203.0.113.7"}, http.StatusForbidden, ""},
		{"remote without token configured", "", false, nil, http.StatusForbidden, ""},
		{"remote guessing when none configured", "", false, []string{"Authorization", "Bearer "}, http.StatusForbidden, ""},
		{"remote without token", "s3cret", false, nil, http.StatusUnauthorized, ""},
		{"remote with wrong token", "s3cret", false, []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized, ""},
		{"remote with token", "s3cret", false, []string{"Authorization", "Bearer s3cret"}, http.StatusOK, ""},
		{"remote with token as basic", "s3cret", false, []string{"Authorization", "Basic s3cret"}, http.StatusUnauthorized, ""},
		{"proxied with token", "s3cret", true, []string{"Authorization", "Bearer s3cret", "X-Forwarded-For", "203.0.113.7"}, http.StatusOK, ""},
		{"loopback through a proxy with its own header", "", true, []string{"CF-Connecting-IP", "203.0.113.7"}, http.StatusForbidden, "CF-Connecting-IP"},
		{"loopback, another header configured", "", true, nil, http.StatusOK, "CF-Connecting-IP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t, tc.token, tc.proxyHeader)
			var status int
			var body string
			if tc.loopback {
				status, body = get(t, fx.serveLoopback(t)+"/metrics", tc.header...)
			} else {
				// fiber's in-memory test connection comes from 0.0.0.0,
				// which is not a loopback address.
				req := httptest.NewRequest("GET", "/metrics", nil)
				for i := 0; i+1 < len(tc.header); i += 2 {
					req.Header.Set(tc.header[i], tc.header[i+1])
				}
				resp, err := fx.f.Test(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				status, body = resp.StatusCode, string(b)
			}
			if status != tc.want {
				t.Fatalf("status = %d, want %d: %s", status, tc.want, body)
			}
			if (status == http.StatusOK) != strings.Contains(body, "fleetd_positions_stored_total") {
				t.Errorf("body does not match the status: %.200s", body)
			}
		})
	}
}

// A real GT06 fix whose course word says 1,000° is stored without the
// course and acknowledged; the removal is counted on /metrics, as is a
// malformed device id.
func TestImpossibleValuesCounted(t *testing.T) {
	fx := newFixture(t, "")
	base := fx.serveLoopback(t)
	conn := fx.report(t)
	// The fix of report's frame (0x12, serial 3) a second later, with course
	// bits 1000 and serial 4 (the same fix would be taken for a resend).
	content, _ := hex.DecodeString("0f0a140e150cc505e51e780293a9e800" + "57e8" + "00f601006e0055da")
	conn.Write(gt06.Frame(0x12, content, 4))
	want := gt06.Frame(0x12, nil, 4)
	got := make([]byte, len(want))
	if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ACK = %x (%v), want %x", got, err, want)
	}
	latest, err := fx.core.Fleet.Positions(model.System(), fleet.PositionQuery{})
	if err != nil || len(latest) != 1 || latest[0].Course != 0 || latest[0].Latitude == 0 {
		t.Fatalf("latest = %+v (%v), want the fix stored with course 0", latest, err)
	}
	if _, err := fx.core.Ingest.Identify("gt06", "86471700\x1b[2J", "192.0.2.1:5000"); err == nil {
		t.Fatal("a control sequence identified a device")
	}
	_, body := get(t, base+"/metrics")
	for _, want := range []string{
		`fleetd_positions_stored_total 2`,
		`fleetd_position_fields_removed_total{field="course"} 1`,
		`fleetd_position_fields_removed_total{field="speed"} 0`,
		`fleetd_device_ids_invalid_total 1`,
	} {
		if !strings.Contains(body, "\n"+want+"\n") {
			t.Errorf("metrics lack %q", want)
		}
	}
}
