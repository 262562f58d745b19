package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func queued(t *testing.T, e *env) []*model.QueuedCommand {
	t.Helper()
	var out []*model.QueuedCommand
	must(t, e.DB.View(func(tx model.Tx) error {
		return tx.QueuedCommands().List(func(q *model.QueuedCommand) bool { out = append(out, q); return true })
	}))
	return out
}

func wantQueued(n int, typ string) func(t *testing.T, e *env, _ *webtest.Response) {
	return wantQueuedOn("d1", n, typ)
}

// wantQueuedOn: the queue holds n commands of type typ, for device.
func wantQueuedOn(device string, n int, typ string) func(t *testing.T, e *env, _ *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		q := queued(t, e)
		if len(q) != n || (n > 0 && (q[0].Type != typ || q[0].DeviceID != e.IDs[device])) {
			t.Fatalf("queue = %+v, want %d %s for %s", q, n, typ, device)
		}
	}
}

func TestCommandSending(t *testing.T) {
	limit := func(t *testing.T, e *env) {
		_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.LimitCommands = true; return nil })
		must(t, err)
	}
	run(t, []scenario{
		{Name: "types of a device's protocol", As: "user1", Method: "GET", Path: "/api/commands/types?deviceId={d1}",
			Status: 200, Want: []string{`[{"type":"custom"},{"type":"engineStop"}]`}},
		{Name: "types of a named protocol", As: "user1", Method: "GET", Path: "/api/commands/types?protocol=test",
			Status: 200, Want: []string{`{"type":"engineStop"}`}},
		{Name: "sms types: none without a gateway", As: "user1", Method: "GET",
			Path: "/api/commands/types?deviceId={d1}&textChannel=true", Status: 200, Want: []string{`[]`}},
		{Name: "types of an invisible device", As: "user1", Method: "GET", Path: "/api/commands/types?deviceId={d3}", Status: 404},
		{Name: "sendable saved commands", As: "user1", Method: "GET", Path: "/api/commands/send?deviceId={d1}",
			Status: 200, Want: []string{`"id":{cmd1}`}, Absent: []string{`"id":{cmd2}`}},
		{Name: "sendable needs deviceId", As: "user1", Method: "GET", Path: "/api/commands/send", Status: 400},

		{Name: "offline device: queued, 202", As: "user1", Method: "POST", Path: "/api/commands/send",
			Body: `{"deviceId":{d1},"type":"custom","attributes":{"data":"reboot"}}`, Status: 202,
			Want: []string{`"type":"custom"`}, After: wantQueued(1, "custom")},
		{Name: "to a group: every device of it, queued", As: "user2", Method: "POST", Path: "/api/commands/send?groupId={g1}",
			Body: `{"type":"custom","attributes":{"data":"reboot"}}`, Status: 202,
			Want: []string{`[{"id":0,"deviceId":{d3}`}, After: wantQueuedOn("d3", 1, "custom")},
		{Name: "to another user's group", As: "user1", Method: "POST", Path: "/api/commands/send?groupId={g1}",
			Body: `{"type":"custom","attributes":{"data":"reboot"}}`, Status: 404},
		{Name: "to an empty group", As: "admin", Before: func(t *testing.T, e *env) {
			create(t, e, "g2", e.Core.Fleet.Groups, func(g *model.Group) { g.Name = "empty" })
		}, Method: "POST", Path: "/api/commands/send?groupId={g2}", Body: `{"type":"custom"}`, Status: 400, Want: []string{"no device"}},
		{Name: "saved command by id", As: "user1", Method: "POST", Path: "/api/commands/send",
			Body: `{"id":{cmd1},"deviceId":{d1}}`, Status: 202, Want: []string{`"type":"engineStop"`},
			After: wantQueued(1, "engineStop")},
		{Name: "type the protocol cannot encode", As: "user1", Method: "POST", Path: "/api/commands/send",
			Body: `{"deviceId":{d1},"type":"engineResume"}`, Status: 400, Want: []string{"not supported by the test protocol"},
			After: wantQueued(0, "")},
		{Name: "limitCommands: 400, nothing queued", As: "user1", Before: limit, Method: "POST", Path: "/api/commands/send",
			Body: `{"deviceId":{d1},"type":"custom"}`, Status: 400, Want: []string{"Commands are limited"},
			After: wantQueued(0, "")},
		{Name: "sms without a gateway", As: "user1", Method: "POST", Path: "/api/commands/send",
			Body: `{"deviceId":{d1},"type":"custom","textChannel":true}`, Status: 400, After: wantQueued(0, "")},
		{Name: "invisible device", As: "user1", Method: "POST", Path: "/api/commands/send",
			Body: `{"deviceId":{d3},"type":"custom"}`, Status: 404, After: wantQueued(0, "")},
		{Name: "no device", As: "user1", Method: "POST", Path: "/api/commands/send", Body: `{"type":"custom"}`, Status: 400},
		{Name: "malformed body", As: "user1", Method: "POST", Path: "/api/commands/send", Body: `{"deviceId":"x"}`, Status: 400},

		{Name: "unknown devices, admin", As: "admin", Method: "GET", Path: "/api/devices/unknown", Status: 200, Want: []string{"[]"}},
		{Name: "unknown devices, user", As: "user1", Method: "GET", Path: "/api/devices/unknown", Status: 403},
		{Name: "unknown device with its frames", As: "admin", Before: tapFrames, Method: "GET", Path: "/api/devices/unknown",
			Status: 200, Want: []string{`"uniqueId":"stranger"`, `"frames":[{"time":`, `"reason":"unknown device","hex":"6869","length":2}`},
			Absent: []string{`"hex":"6b6f"`}},

		{Name: "raw frames, admin", As: "admin", Before: tapFrames, Method: "GET", Path: "/api/devices/frames",
			Status: 200, Want: []string{`"hex":"6b6f"`, `"hex":"6869"`}},
		{Name: "raw frames of a device", As: "admin", Before: tapFrames, Method: "GET", Path: "/api/devices/frames?deviceId={d1}",
			Status: 200, Want: []string{`"deviceId":{d1},"reason":"checksum mismatch","hex":"6b6f","length":2`}, Absent: []string{`"hex":"6869"`}},
		{Name: "raw frames, limit", As: "admin", Before: tapFrames, Method: "GET", Path: "/api/devices/frames?limit=1",
			Status: 200, Want: []string{`"hex":"6b6f"`}, Absent: []string{`"hex":"6869"`}},
		{Name: "raw frames, bad deviceId", As: "admin", Method: "GET", Path: "/api/devices/frames?deviceId=x", Status: 400},
		{Name: "raw frames, user", As: "user1", Before: tapFrames, Method: "GET", Path: "/api/devices/frames", Status: 403},
	})
}

// tapFrames has the listeners tell the inbox of an unknown device's frame,
// then of a frame of d1 with a bad checksum.
func tapFrames(t *testing.T, e *env) {
	_, err := e.Core.Ingest.Identify("test", "stranger", "10.0.0.9:5000")
	if err == nil {
		t.Fatal("stranger identified")
	}
	e.Core.Ingest.Tap(inbox.Seen{Protocol: "test", Remote: "10.0.0.9:5000", UniqueID: "stranger", Data: []byte("hi"), Problem: "unknown device"})
	e.Core.Ingest.Tap(inbox.Seen{Protocol: "test", Remote: "10.0.0.8:5000", UniqueID: "d1", DeviceID: e.IDs["d1"], Data: []byte("ko"), Problem: "checksum mismatch"})
}
