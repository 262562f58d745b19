package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func queued(t *testing.T, e *env) []*model.QueuedCommand {
	t.Helper()
	var out []*model.QueuedCommand
	must(t, e.db.View(func(tx model.Tx) error {
		return tx.QueuedCommands().List(func(q *model.QueuedCommand) bool { out = append(out, q); return true })
	}))
	return out
}

func wantQueued(n int, typ string) func(t *testing.T, e *env, _ *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		q := queued(t, e)
		if len(q) != n || (n > 0 && (q[0].Type != typ || q[0].DeviceID != e.ids["d1"])) {
			t.Fatalf("queue = %+v, want %d %s for d1", q, n, typ)
		}
	}
}

func TestCommandSending(t *testing.T) {
	limit := func(t *testing.T, e *env) {
		_, err := e.core.UpdateUser(app.System(), e.ids["user1"], func(u *model.User) error { u.LimitCommands = true; return nil })
		must(t, err)
	}
	runScenarios(t, []scenario{
		{name: "types of a device's protocol", as: "user1", method: "GET", path: "/api/commands/types?deviceId={d1}",
			status: 200, want: []string{`[{"type":"custom"},{"type":"engineStop"}]`}},
		{name: "types of a named protocol", as: "user1", method: "GET", path: "/api/commands/types?protocol=test",
			status: 200, want: []string{`{"type":"engineStop"}`}},
		{name: "sms types: none without a gateway", as: "user1", method: "GET",
			path: "/api/commands/types?deviceId={d1}&textChannel=true", status: 200, want: []string{`[]`}},
		{name: "types of an invisible device", as: "user1", method: "GET", path: "/api/commands/types?deviceId={d3}", status: 404},
		{name: "sendable saved commands", as: "user1", method: "GET", path: "/api/commands/send?deviceId={d1}",
			status: 200, want: []string{`"id":{cmd1}`}, absent: []string{`"id":{cmd2}`}},
		{name: "sendable needs deviceId", as: "user1", method: "GET", path: "/api/commands/send", status: 400},

		{name: "offline device: queued, 202", as: "user1", method: "POST", path: "/api/commands/send",
			body: `{"deviceId":{d1},"type":"custom","attributes":{"data":"reboot"}}`, status: 202,
			want: []string{`"type":"custom"`}, check: wantQueued(1, "custom")},
		{name: "saved command by id", as: "user1", method: "POST", path: "/api/commands/send",
			body: `{"id":{cmd1},"deviceId":{d1}}`, status: 202, want: []string{`"type":"engineStop"`},
			check: wantQueued(1, "engineStop")},
		{name: "type the protocol cannot encode", as: "user1", method: "POST", path: "/api/commands/send",
			body: `{"deviceId":{d1},"type":"engineResume"}`, status: 400, want: []string{"not supported by the test protocol"},
			check: wantQueued(0, "")},
		{name: "limitCommands: 400, nothing queued", as: "user1", prepare: limit, method: "POST", path: "/api/commands/send",
			body: `{"deviceId":{d1},"type":"custom"}`, status: 400, want: []string{"Commands are limited"},
			check: wantQueued(0, "")},
		{name: "sms without a gateway", as: "user1", method: "POST", path: "/api/commands/send",
			body: `{"deviceId":{d1},"type":"custom","textChannel":true}`, status: 400, check: wantQueued(0, "")},
		{name: "invisible device", as: "user1", method: "POST", path: "/api/commands/send",
			body: `{"deviceId":{d3},"type":"custom"}`, status: 404, check: wantQueued(0, "")},
		{name: "no device", as: "user1", method: "POST", path: "/api/commands/send", body: `{"type":"custom"}`, status: 400},
		{name: "malformed body", as: "user1", method: "POST", path: "/api/commands/send", body: `{"deviceId":"x"}`, status: 400},

		{name: "unknown devices, admin", as: "admin", method: "GET", path: "/api/devices/unknown", status: 200, want: []string{"[]"}},
		{name: "unknown devices, user", as: "user1", method: "GET", path: "/api/devices/unknown", status: 403},
	})
}
