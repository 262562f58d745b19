package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// serve runs the fixture's core behind a real listener, as the socket
// needs a real connection to upgrade.
func serve(t *testing.T, e *env, keepAlive time.Duration) string {
	t.Helper()
	return webtest.Serve(t, web.New(e.core, web.Options{Logger: slog.New(slog.DiscardHandler), KeepAlive: keepAlive}))
}

func dialSocket(t *testing.T, addr string, cookie *http.Cookie) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if cookie != nil {
		h.Set("Cookie", cookie.String())
	}
	return websocket.DefaultDialer.Dial("ws://"+addr+"/api/socket", h)
}

func nextUpdate(t *testing.T, c *websocket.Conn) (app.Update, string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, data, err := c.ReadMessage()
	must(t, err)
	var u app.Update
	must(t, json.Unmarshal(data, &u))
	return u, string(data)
}

func TestSocket(t *testing.T) {
	e := newEnv(t)
	addr := serve(t, e, 200*time.Millisecond)

	if _, res, err := dialSocket(t, addr, nil); err == nil || res == nil || res.StatusCode != 401 {
		t.Fatalf("anonymous socket: err %v response %v, want 401", err, res)
	}

	c, _, err := dialSocket(t, addr, e.login(t, "user1"))
	must(t, err)
	defer c.Close()
	// On open: the latest position of each visible device (d1 only).
	u, raw := nextUpdate(t, c)
	if len(u.Positions) != 1 || u.Positions[0].ID != e.ids["p3"] {
		t.Fatalf("first message = %s, want the latest position of d1", raw)
	}
	// A new position of a visible device arrives with its device; one of
	// an invisible device does not.
	must(t, e.core.Ingest(e.ids["d3"], []*app.Position{{FixTime: t12, Valid: true, Latitude: 1, Longitude: 1}}))
	must(t, e.core.Ingest(e.ids["d1"], []*app.Position{{FixTime: t12.Add(time.Minute), Valid: true, Latitude: 2, Longitude: 2}}))
	for {
		u, raw = nextUpdate(t, c)
		if len(u.Positions) == 0 && len(u.Devices) == 0 && len(u.Events) == 0 {
			if raw != "{}" {
				t.Fatalf("keep-alive = %s, want {}", raw)
			}
			continue
		}
		break
	}
	if len(u.Positions) != 1 || u.Positions[0].DeviceID != e.ids["d1"] || len(u.Devices) != 1 || u.Devices[0].ID != e.ids["d1"] {
		t.Fatalf("update = %s, want d1's new position and d1", raw)
	}
	if strings.Contains(raw, `"deviceId":`+itoa(e.ids["d3"])+`,`) {
		t.Fatalf("update leaks d3: %s", raw)
	}
	// Then only keep-alives.
	if _, raw = nextUpdate(t, c); raw != "{}" {
		t.Fatalf("message = %s, want keep-alive {}", raw)
	}
}

func TestSocketNeedsUpgrade(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "plain GET", as: "user1", method: "GET", path: "/api/socket", status: 400, want: []string{"WebSocket"}},
	})
}

func itoa(id int64) string { b, _ := json.Marshal(id); return string(b) }
