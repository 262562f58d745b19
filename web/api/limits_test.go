package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// TestOverLongValues: a string longer than its field's limit answers 400
// naming the field and the limit, and the store is left as it was. The
// first three are the issue's: values longer than a store key, which
// answered 500 "key too large".
func TestOverLongValues(t *testing.T) {
	digits := strings.Repeat("7", 40_000)
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, as, method, path, body string
		want                         string
	}{
		{"device uniqueId of 40,000 digits", "admin", "POST", "/api/devices",
			`{"name":"Truck","uniqueId":"` + digits + `"}`, "uniqueId may have at most 128 characters"},
		{"driver uniqueId of 40,000 digits", "admin", "POST", "/api/drivers",
			`{"name":"Dana","uniqueId":"` + digits + `"}`, "uniqueId may have at most 128 characters"},
		{"user e-mail of 40,000 characters", "admin", "POST", "/api/users",
			`{"name":"Eve","email":"` + long(40_000) + `@example.com","password":"p"}`, "email may have at most 254 characters"},

		{"device uniqueId one over", "admin", "POST", "/api/devices",
			`{"name":"Truck","uniqueId":"` + long(model.MaxUniqueID+1) + `"}`, "uniqueId may have at most 128 characters"},
		{"device name on update", "user1", "PUT", "/api/devices/{d1}",
			`{"name":"` + long(model.MaxName+1) + `","uniqueId":"100000000000001"}`, "name may have at most 256 characters"},
		{"device contact", "admin", "POST", "/api/devices",
			`{"name":"T","uniqueId":"9","contact":"` + long(model.MaxText+1) + `"}`, "contact may have at most 4096 characters"},
		{"device attribute key", "admin", "POST", "/api/devices",
			`{"name":"T","uniqueId":"9","attributes":{"` + long(model.MaxAttributeKey+1) + `":1}}`, "attributes keys may have at most 128 characters"},
		{"group attribute value", "admin", "POST", "/api/groups",
			`{"name":"G","attributes":{"note":"` + long(model.MaxText+1) + `"}}`, "attributes.note may have at most 4096 characters"},
		{"group name", "admin", "POST", "/api/groups", `{"name":"` + long(model.MaxName+1) + `"}`, "name may have at most 256"},
		{"command type", "admin", "POST", "/api/commands", `{"type":"` + long(model.MaxName+1) + `"}`, "type may have at most 256"},
		{"geofence area", "admin", "POST", "/api/geofences",
			`{"name":"Depot","area":"` + long(model.MaxArea+1) + `"}`, "area may have at most 65536 characters"},
		{"driver name", "admin", "POST", "/api/drivers",
			`{"name":"` + long(model.MaxName+1) + `","uniqueId":"d-1"}`, "name may have at most 256"},
		{"computed attribute name", "admin", "POST", "/api/attributes/computed",
			`{"attribute":"` + long(65) + `","expression":"1","type":"number"}`, "attribute may have at most 64 characters"},
		{"user e-mail on update", "user1", "PUT", "/api/users/{user1}",
			`{"email":"` + long(model.MaxEmail) + `@example.com"}`, "email may have at most 254 characters"},
		{"user phone", "user1", "PUT", "/api/users/{user1}",
			`{"email":"user1@example.com","phone":"` + long(model.MaxName+1) + `"}`, "phone may have at most 256"},
		{"user nested attribute", "user1", "PUT", "/api/users/{user1}",
			`{"email":"user1@example.com","attributes":{"web":{"` + long(model.MaxAttributeKey+1) + `":1}}}`, "attributes.web keys may have at most 128"},
		{"user password", "admin", "POST", "/api/users",
			`{"name":"Eve","email":"eve@example.com","password":"` + long(model.MaxPassword+1) + `"}`, "password may have at most 72"},
		{"server announcement", "admin", "PUT", "/api/server",
			`{"announcement":"` + long(model.MaxText+1) + `"}`, "announcement may have at most 4096 characters"},
		{"command sent to a device", "user1", "POST", "/api/commands/send",
			`{"deviceId":{d1},"type":"custom","attributes":{"data":"` + long(model.MaxText+1) + `"}}`, "attributes.data may have at most 4096"},
	}
	var scenarios []scenario
	for _, tt := range tests {
		scenarios = append(scenarios, scenario{Name: tt.name, As: tt.as, Method: tt.method, Path: tt.path, Body: tt.body,
			Status: 400, Want: []string{`"message":"Invalid request"`, tt.want}, Absent: []string{digits[:200]}, Unchanged: true})
	}
	run(t, scenarios)
}

// TestOverLongCredentials: credentials no account can have are wrong
// (401), answered without bcrypt and not counted by the login throttle, so
// they neither lock the account out nor keep an over-long e-mail in memory.
func TestOverLongCredentials(t *testing.T) {
	e := newEnv(t)
	forms := []string{
		"email=" + strings.Repeat("x", 40_000) + "%40example.com&password=p",
		"email=user1%40example.com&password=" + strings.Repeat("p", model.MaxPassword+1),
	}
	for range 3 { // the fixture locks an account out after 3 failures
		for _, form := range forms {
			r := e.Send(t, "", e.Request(t, "POST", "/api/session", fiber.MIMEApplicationForm, form))
			r.Check(t, fmt.Sprintf("POST /api/session (%d bytes)", len(form)), 401, nil, nil)
		}
	}
	e.Call(t, "user1", "GET", "/api/session", "").Check(t, "GET /api/session as user1", 200, nil, nil)
}
