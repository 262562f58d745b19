package api_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// serve runs the fixture's core behind a real listener, as the socket
// needs a real connection to upgrade.
func serve(t *testing.T, e *env, keepAlive time.Duration) string {
	t.Helper()
	return webtest.Serve(t, web.New(e.Core, web.Options{Logger: slog.New(slog.DiscardHandler), KeepAlive: keepAlive}))
}

func dialSocket(t *testing.T, addr string, cookie *http.Cookie) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if cookie != nil {
		h.Set("Cookie", cookie.String())
	}
	return websocket.DefaultDialer.Dial("ws://"+addr+"/api/socket", h)
}

func nextUpdate(t *testing.T, c *websocket.Conn) (live.Update, string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, data, err := c.ReadMessage()
	must(t, err)
	var u live.Update
	must(t, json.Unmarshal(data, &u))
	return u, string(data)
}

func TestSocket(t *testing.T) {
	e := newEnv(t)
	addr := serve(t, e, 200*time.Millisecond)

	if _, res, err := dialSocket(t, addr, nil); err == nil || res == nil || res.StatusCode != 401 {
		t.Fatalf("anonymous socket: err %v response %v, want 401", err, res)
	}

	c, _, err := dialSocket(t, addr, e.Login(t, "user1"))
	must(t, err)
	defer c.Close()
	// On open: the latest position of each visible device (d1 only).
	u, raw := nextUpdate(t, c)
	if len(u.Positions) != 1 || u.Positions[0].ID != e.IDs["p3"] {
		t.Fatalf("first message = %s, want the latest position of d1", raw)
	}
	// A new position of a visible device arrives with its device; one of
	// an invisible device does not.
	must(t, e.Core.Ingest.Ingest(e.IDs["d3"], []*model.Position{{FixTime: t12, Valid: true, Latitude: 1, Longitude: 1}}))
	must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{FixTime: t12.Add(time.Minute), Valid: true, Latitude: 2, Longitude: 2}}))
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
	if len(u.Positions) != 1 || u.Positions[0].DeviceID != e.IDs["d1"] || len(u.Devices) != 1 || u.Devices[0].ID != e.IDs["d1"] {
		t.Fatalf("update = %s, want d1's new position and d1", raw)
	}
	if strings.Contains(raw, `"deviceId":`+itoa(e.IDs["d3"])+`,`) {
		t.Fatalf("update leaks d3: %s", raw)
	}
	// Then only keep-alives.
	if _, raw = nextUpdate(t, c); raw != "{}" {
		t.Fatalf("message = %s, want keep-alive {}", raw)
	}
}

func TestSocketNeedsUpgrade(t *testing.T) {
	run(t, []scenario{
		{Name: "plain GET", As: "user1", Method: "GET", Path: "/api/socket", Status: 400, Want: []string{"WebSocket"}},
	})
}

func itoa(id int64) string { b, _ := json.Marshal(id); return string(b) }

// A live socket ends when its client's access does: logout of its session,
// a password change, a disabled account. Another session's logout does not
// touch it.
func TestSocketAccessEnds(t *testing.T) {
	basic := func(t *testing.T, e *env, name string) http.Header {
		h := http.Header{}
		req, _ := http.NewRequest("GET", "/", nil)
		e.Sign(t, req, name, webtest.AuthBasic)
		h.Set("Authorization", req.Header.Get("Authorization"))
		return h
	}
	cookieHeader := func(c *http.Cookie) http.Header { return http.Header{"Cookie": {c.String()}} }
	for _, tc := range []struct {
		name   string
		open   func(t *testing.T, e *env) (header http.Header, cookie *http.Cookie)
		revoke func(t *testing.T, e *env, cookie *http.Cookie)
		ends   bool
	}{
		{"logout of its session", func(t *testing.T, e *env) (http.Header, *http.Cookie) {
			c := e.Login(t, "user1")
			return cookieHeader(c), c
		}, func(t *testing.T, e *env, c *http.Cookie) {
			e.requestWithCookie(t, c, "DELETE", "/api/session").Check(t, "logout", 204, nil, nil)
		}, true},
		{"logout of another session", func(t *testing.T, e *env) (http.Header, *http.Cookie) {
			return cookieHeader(e.Login(t, "user1")), nil
		}, func(t *testing.T, e *env, _ *http.Cookie) {
			e.requestWithCookie(t, e.Login(t, "user1"), "DELETE", "/api/session").Check(t, "logout", 204, nil, nil)
		}, false},
		{"password changed (Basic)", func(t *testing.T, e *env) (http.Header, *http.Cookie) { return basic(t, e, "user1"), nil },
			func(t *testing.T, e *env, _ *http.Cookie) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.Password = "new-secret"; return nil })
				must(t, err)
			}, true},
		{"account disabled", func(t *testing.T, e *env) (http.Header, *http.Cookie) { return cookieHeader(e.Login(t, "user1")), nil },
			func(t *testing.T, e *env, _ *http.Cookie) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.Disabled = true; return nil })
				must(t, err)
			}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			addr := serve(t, e, time.Hour)
			header, cookie := tc.open(t, e)
			c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/api/socket", header)
			must(t, err)
			defer c.Close()
			nextUpdate(t, c) // the latest positions
			tc.revoke(t, e, cookie)
			must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{FixTime: t12.Add(time.Minute), Valid: true, Latitude: 2, Longitude: 2}}))
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, data, err := c.ReadMessage()
			var closed *websocket.CloseError
			switch {
			case tc.ends && (!errors.As(err, &closed) || closed.Code != websocket.ClosePolicyViolation):
				t.Fatalf("read %s, %v; want the socket closed with 1008", data, err)
			case !tc.ends && (err != nil || !strings.Contains(string(data), `"positions"`)):
				t.Fatalf("read %s, %v; want the new position", data, err)
			}
		})
	}
}

// TestSocketLogs: a client that sends {"logs": true} gets the frames of
// the devices it sees, in hex; frames of unknown devices go to
// administrators only.
func TestSocketLogs(t *testing.T) {
	e := newEnv(t)
	addr := serve(t, e, time.Hour)
	// logs opens a socket, asks for logs and returns its log records.
	logs := func(name string) <-chan live.LogRecord {
		c, _, err := dialSocket(t, addr, e.Login(t, name))
		must(t, err)
		t.Cleanup(func() { c.Close() })
		nextUpdate(t, c) // the latest positions
		must(t, c.WriteMessage(websocket.TextMessage, []byte(`{"logs":true}`)))
		out := make(chan live.LogRecord, 100)
		go func() {
			for {
				_, data, err := c.ReadMessage()
				if err != nil {
					return
				}
				var u live.Update
				if json.Unmarshal(data, &u) == nil {
					for _, r := range u.Logs {
						out <- *r
					}
				}
			}
		}()
		return out
	}
	user, admin := logs("user1"), logs("admin")
	frame := func(deviceID int64, data string) {
		e.Core.Ingest.Tap(inbox.Seen{Protocol: "gt06", Remote: "192.0.2.7:4242", UniqueID: "123456789012345", DeviceID: deviceID, Data: []byte(data)})
	}
	// The server reads {"logs": true} on its own time: offer the frame
	// until it arrives.
	waitLog := func(records <-chan live.LogRecord, device int64, send func()) live.LogRecord {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			send()
			select {
			case r := <-records:
				if r.DeviceID == device { // an administrator sees the others' too
					return r
				}
			case <-time.After(20 * time.Millisecond):
			}
		}
		t.Fatal("no log record on the socket")
		return live.LogRecord{}
	}
	got := waitLog(user, e.IDs["d1"], func() { frame(e.IDs["d1"], "\x78\x78\x0d\x01") })
	if got != (live.LogRecord{Host: "192.0.2.7", Protocol: "gt06", UniqueID: "123456789012345", DeviceID: e.IDs["d1"], Data: "78780d01"}) {
		t.Errorf("log record %+v", got)
	}
	if got := waitLog(admin, 0, func() { frame(0, "?") }); got.Data != "3f" {
		t.Errorf("admin's record of an unknown device: %+v", got)
	}
	// user1 sees no frame of d3, nor of an unknown device.
	frame(e.IDs["d3"], "x")
	frame(0, "y")
	timeout := time.After(300 * time.Millisecond)
	for {
		select {
		case r := <-user:
			if r.Data != "78780d01" {
				t.Errorf("user1 got %+v", r)
			}
		case <-timeout:
			return
		}
	}
}
