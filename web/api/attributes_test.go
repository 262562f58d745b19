package api_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestComputedAttributes(t *testing.T) {
	withAttr := func(t *testing.T, e *env) {
		create(t, e, "ca1", e.core.ComputedAttributes, func(a *model.ComputedAttribute) {
			a.Attribute, a.Expression, a.Type = "kmh", "speed * 1.852", "number"
		})
		e.link(t, "user", "user1", "attribute", "ca1")
	}
	runScenarios(t, []scenario{
		{name: "create", as: "user1", method: "POST", path: "/api/attributes/computed",
			body: `{"attribute":"fuelOut","expression":"fuel == 0","type":"boolean","priority":2}`, status: 200,
			want: []string{`"attribute":"fuelOut"`, `"description":"fuelOut"`, `"expression":"fuel == 0"`, `"type":"boolean"`, `"priority":2`}},
		{name: "an expression that does not compile", as: "user1", method: "POST", path: "/api/attributes/computed",
			body: `{"attribute":"x","expression":"speed *","type":"number"}`, status: 400, want: []string{"expression"}},
		{name: "a bad type", as: "user1", method: "POST", path: "/api/attributes/computed",
			body: `{"attribute":"x","expression":"1","type":"date"}`, status: 400, want: []string{"type must be"}},
		{name: "attribute and expression are required", as: "user1", method: "POST", path: "/api/attributes/computed",
			body: `{"type":"number"}`, status: 400, want: []string{"attribute and expression are required"}},
		{name: "an expression too long", as: "user1", method: "POST", path: "/api/attributes/computed",
			body: `{"attribute":"x","type":"number","expression":"` + longSum(600) + `"}`, status: 400},
		{name: "a read-only user cannot create", as: "user1", method: "POST", path: "/api/attributes/computed",
			prepare: func(t *testing.T, e *env) {
				_, err := e.core.UpdateUser(app.System(), e.ids["user1"], func(u *model.User) error { u.Readonly = true; return nil })
				must(t, err)
			},
			body: `{"attribute":"x","expression":"1","type":"number"}`, status: 403},
		{name: "linked user lists it", as: "user1", prepare: withAttr, method: "GET", path: "/api/attributes/computed",
			status: 200, want: []string{`"id":{ca1}`}},
		{name: "another user cannot read it", as: "user2", prepare: withAttr, method: "GET", path: "/api/attributes/computed/{ca1}", status: 404},
		{name: "update", as: "user1", prepare: withAttr, method: "PUT", path: "/api/attributes/computed/{ca1}",
			body: `{"expression":"speed * 2"}`, status: 200, want: []string{`"expression":"speed * 2"`, `"attribute":"kmh"`}},
		{name: "link to a device, then list by device", as: "user1", prepare: withAttr, method: "POST", path: "/api/permissions",
			body: `{"deviceId":{d1},"attributeId":{ca1}}`, status: 204,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				r := e.request(t, "user1", "GET", e.expand(t, "/api/attributes/computed?deviceId={d1}"), "", "")
				if r.Status != 200 || r.Body == "[]" {
					t.Fatalf("by device: %d %s", r.Status, r.Body)
				}
			}},
		{name: "link to a group", as: "admin", prepare: withAttr, method: "POST", path: "/api/permissions",
			body: `{"groupId":{g1},"attributeId":{ca1}}`, status: 204},
		{name: "cannot link another user's attribute", as: "user2", prepare: withAttr, method: "POST", path: "/api/permissions",
			body: `{"groupId":{g1},"attributeId":{ca1}}`, status: 404},
		{name: "delete", as: "user1", prepare: withAttr, method: "DELETE", path: "/api/attributes/computed/{ca1}", status: 204},
		{name: "test on the latest position", as: "user1", method: "POST", path: "/api/attributes/computed/test?deviceId={d1}",
			body: `{"attribute":"where","expression":"latitude > 50 ? \"north\" : \"south\"","type":"string"}`, status: 200,
			want: []string{`"north"`}},
		{name: "test without a value", as: "user1", method: "POST", path: "/api/attributes/computed/test?deviceId={d1}",
			body: `{"attribute":"x","expression":"nothing","type":"number"}`, status: 204},
		{name: "test with a type mismatch", as: "user1", method: "POST", path: "/api/attributes/computed/test?deviceId={d1}",
			body: `{"attribute":"x","expression":"\"abc\"","type":"number"}`, status: 400, want: []string{"is not a number"}},
		{name: "test on a device the caller cannot see", as: "user2", method: "POST", path: "/api/attributes/computed/test?deviceId={d1}",
			body: `{"attribute":"x","expression":"1","type":"number"}`, status: 404},
		{name: "test needs deviceId", as: "user1", method: "POST", path: "/api/attributes/computed/test",
			body: `{"attribute":"x","expression":"1","type":"number"}`, status: 400},
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
	create(t, e, "ca1", e.core.ComputedAttributes, func(a *model.ComputedAttribute) {
		a.Attribute, a.Expression, a.Type = "kmh", "speed * 1.852", "number"
	})
	e.link(t, "group", "g1", "attribute", "ca1")
	at := time.Now().UTC().Truncate(time.Second)
	must(t, e.core.Ingest(e.ids["d3"], []*model.Position{{FixTime: at, Valid: true, Latitude: 1, Longitude: 1, Speed: 10}}))
	must(t, e.core.Ingest(e.ids["d1"], []*model.Position{{FixTime: at, Valid: true, Latitude: 1, Longitude: 1, Speed: 10}}))
	var d3, d1 *model.Position
	must(t, e.db.View(func(tx model.Tx) (err error) {
		if d3, err = tx.LatestPosition(e.ids["d3"]); err == nil {
			d1, err = tx.LatestPosition(e.ids["d1"])
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
