package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

// today is a span around now, for the activity written during a test.
func today() string {
	now := time.Now().UTC()
	return "from=" + now.Add(-time.Hour).Format(time.RFC3339) + "&to=" + now.Add(time.Hour).Format(time.RFC3339)
}

func TestAudit(t *testing.T) {
	run(t, []scenario{
		{Name: "a user's change and login, with address and e-mail", As: "admin", Before: func(t *testing.T, e *env) {
			if r := e.Call(t, "user1", "POST", "/api/geofences", `{"name":"depot","area":"CIRCLE (52.5 13.4, 100)"}`); r.Status != 200 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
			e.Send(t, "", e.Request(t, "POST", "/api/session", fiber.MIMEApplicationForm, "email=user2@example.com&password=user2-secret"))
		}, Method: "GET", Path: "/api/audit?" + today(), Status: 200,
			Want: []string{`"userId":{user1},"actionType":"create","objectType":"geofence"`, `"userEmail":"user1@example.com"`,
				`"userId":{user2},"actionType":"login","objectType":"user","objectId":{user2}`}},
		{Name: "a refused change leaves nothing", As: "admin", Before: func(t *testing.T, e *env) {
			if r := e.Call(t, "user1", "POST", "/api/geofences", `{"name":"depot","area":"NOT A SHAPE"}`); r.Status != 400 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
		}, Method: "GET", Path: "/api/audit?" + today(), Status: 200, Absent: []string{`"userId":{user1},"actionType":"create"`}},
		{Name: "links, on their owner", As: "admin", Before: func(t *testing.T, e *env) {
			e.Call(t, "admin", "POST", "/api/permissions", `{"userId":{user2},"deviceId":{d1}}`)
		}, Method: "GET", Path: "/api/audit?" + today(), Status: 200,
			Want: []string{`"userId":{admin},"actionType":"link","objectType":"user","objectId":{user2}`}},
		{Name: "administrators only", As: "manager1", Method: "GET", Path: "/api/audit?" + today(), Status: 403},
		{Name: "a span is required", As: "admin", Method: "GET", Path: "/api/audit", Status: 400},
	})
}

func TestStatistics(t *testing.T) {
	run(t, []scenario{
		{Name: "today's use once flushed", As: "admin", Before: func(t *testing.T, e *env) {
			e.Call(t, "user1", "GET", "/api/devices", "")
			e.Call(t, "user2", "GET", "/api/devices", "")
			for range 3 {
				e.Core.Ingest.Tap(inbox.Seen{Protocol: "gt06"})
			}
			now := time.Now().UTC()
			must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{Protocol: "gt06", FixTime: now, DeviceTime: now,
				Valid: true, Latitude: 1, Longitude: 2, Attributes: model.Attributes{}}}))
			must(t, e.Core.Activity.Flush())
		}, Method: "GET", Path: "/api/statistics?" + today(), Status: 200,
			Want: []string{`"activeUsers":2`, `"activeDevices":1`, `"messagesReceived":3`, `"messagesStored":1`, `"protocols":{"gt06":3}`},
			After: func(t *testing.T, e *env, r *webtest.Response) {
				if !strings.Contains(r.Body, `"requests":2`) {
					t.Errorf("two requests before the flush: %s", r.Body)
				}
			}},
		{Name: "administrators only", As: "user1", Method: "GET", Path: "/api/statistics?" + today(), Status: 403},
	})
}
