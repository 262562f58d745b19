package api_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestComputedAttributes(t *testing.T) {
	withAttr := func(t *testing.T, e *env) {
		create(t, e, "ca1", e.Core.Fleet.ComputedAttributes, func(a *model.ComputedAttribute) {
			a.Attribute, a.Expression, a.Type = "kmh", "speed * 1.852", "number"
		})
		e.link(t, "user", "user1", "attribute", "ca1")
	}
	run(t, []scenario{
		{Name: "create", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"attribute":"fuelOut","expression":"fuel == 0","type":"boolean","priority":2}`, Status: 200,
			Want: []string{`"attribute":"fuelOut"`, `"description":"fuelOut"`, `"expression":"fuel == 0"`, `"type":"boolean"`, `"priority":2`}},
		{Name: "an expression that does not compile", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"attribute":"x","expression":"speed *","type":"number"}`, Status: 400, Want: []string{"expression"}},
		{Name: "a bad type", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"attribute":"x","expression":"1","type":"date"}`, Status: 400, Want: []string{"type must be"}},
		{Name: "attribute and expression are required", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"type":"number"}`, Status: 400, Want: []string{"attribute and expression are required"}},
		{Name: "an expression too long", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"attribute":"x","type":"number","expression":"` + longSum(600) + `"}`, Status: 400},
		{Name: "a read-only user cannot create", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Before: func(t *testing.T, e *env) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.Readonly = true; return nil })
				must(t, err)
			},
			Body: `{"attribute":"x","expression":"1","type":"number"}`, Status: 403},
		{Name: "linked user lists it", As: "user1", Before: withAttr, Method: "GET", Path: "/api/attributes/computed",
			Status: 200, Want: []string{`"id":{ca1}`}},
		{Name: "another user cannot read it", As: "user2", Before: withAttr, Method: "GET", Path: "/api/attributes/computed/{ca1}", Status: 404},
		{Name: "update", As: "user1", Before: withAttr, Method: "PUT", Path: "/api/attributes/computed/{ca1}",
			Body: `{"expression":"speed * 2"}`, Status: 200, Want: []string{`"expression":"speed * 2"`, `"attribute":"kmh"`}},
		{Name: "link to a device, then list by device", As: "user1", Before: withAttr, Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":{d1},"attributeId":{ca1}}`, Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				r := e.Call(t, "user1", "GET", "/api/attributes/computed?deviceId={d1}", "")
				if r.Status != 200 || r.Body == "[]" {
					t.Fatalf("by device: %d %s", r.Status, r.Body)
				}
			}},
		{Name: "link to a group", As: "admin", Before: withAttr, Method: "POST", Path: "/api/permissions",
			Body: `{"groupId":{g1},"attributeId":{ca1}}`, Status: 204},
		{Name: "cannot link another user's attribute", As: "user2", Before: withAttr, Method: "POST", Path: "/api/permissions",
			Body: `{"groupId":{g1},"attributeId":{ca1}}`, Status: 404},
		{Name: "delete", As: "user1", Before: withAttr, Method: "DELETE", Path: "/api/attributes/computed/{ca1}", Status: 204},
		{Name: "test on the latest position", As: "user1", Method: "POST", Path: "/api/attributes/computed/test?deviceId={d1}",
			Body: `{"attribute":"where","expression":"latitude > 50 ? \"north\" : \"south\"","type":"string"}`, Status: 200,
			Want: []string{`"north"`}},
		{Name: "test without a value", As: "user1", Method: "POST", Path: "/api/attributes/computed/test?deviceId={d1}",
			Body: `{"attribute":"x","expression":"nothing","type":"number"}`, Status: 204},
		{Name: "no type is text, as Traccar's web app saves it", As: "user1", Method: "POST", Path: "/api/attributes/computed",
			Body: `{"attribute":"band","expression":"speed > 10 ? 1 : 0"}`, Status: 200, Want: []string{`"type":""`}},
		{Name: "test without a type gives text", As: "user1", Method: "POST", Path: "/api/attributes/computed/test?deviceId={d1}",
			Body: `{"attribute":"x","expression":"1 + 1"}`, Status: 200, Want: []string{`"2"`}},
		{Name: "test with a type mismatch", As: "user1", Method: "POST", Path: "/api/attributes/computed/test?deviceId={d1}",
			Body: `{"attribute":"x","expression":"\"abc\"","type":"number"}`, Status: 400, Want: []string{"is not a number"}},
		{Name: "test on a device the caller cannot see", As: "user2", Method: "POST", Path: "/api/attributes/computed/test?deviceId={d1}",
			Body: `{"attribute":"x","expression":"1","type":"number"}`, Status: 404},
		{Name: "test needs deviceId", As: "user1", Method: "POST", Path: "/api/attributes/computed/test",
			Body: `{"attribute":"x","expression":"1","type":"number"}`, Status: 400},
	})
}

// longSum is an expression of n additions, past the length limit.
func longSum(n int) string {
	s := "1"
	for range n {
		s += "+1"
	}
	return s
}

// TestComputedAttributeIngest: an attribute linked through a group applies
// to positions of the group's devices, via the real ingest.
func TestComputedAttributeIngest(t *testing.T) {
	e := newEnv(t)
	create(t, e, "ca1", e.Core.Fleet.ComputedAttributes, func(a *model.ComputedAttribute) {
		a.Attribute, a.Expression, a.Type = "kmh", "speed * 1.852", "number"
	})
	e.link(t, "group", "g1", "attribute", "ca1")
	at := time.Now().UTC().Truncate(time.Second)
	must(t, e.Core.Ingest.Ingest(e.IDs["d3"], []*model.Position{{FixTime: at, Valid: true, Latitude: 1, Longitude: 1, Speed: 10}}))
	must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{FixTime: at, Valid: true, Latitude: 1, Longitude: 1, Speed: 10}}))
	var d3, d1 *model.Position
	must(t, e.DB.View(func(tx model.Tx) (err error) {
		if d3, err = tx.LatestPosition(e.IDs["d3"]); err == nil {
			d1, err = tx.LatestPosition(e.IDs["d1"])
		}
		return err
	}))
	if d3.Attributes["kmh"] != 18.52 {
		t.Fatalf("d3 (in g1) kmh = %v", d3.Attributes["kmh"])
	}
	if _, ok := d1.Attributes["kmh"]; ok {
		t.Fatalf("d1 (not linked) got kmh %v", d1.Attributes["kmh"])
	}
}
