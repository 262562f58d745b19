package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/internal/sinktest"
)

func TestNotificationObjects(t *testing.T) {
	run(t, []scenario{
		{Name: "create as the web app does", As: "user1", Method: "POST", Path: "/api/notifications",
			Body:   `{"type":"geofenceEnter","notificators":"web,mail","always":false,"calendarId":0,"attributes":{}}`,
			Status: 200, Want: []string{`"type":"geofenceEnter"`, `"notificators":"web,mail"`}},
		{Name: "an alarm one needs its kinds", As: "user1", Method: "POST", Path: "/api/notifications",
			Body: `{"type":"alarm","notificators":"web"}`, Status: 400, Want: []string{"attributes.alarms"}},
		{Name: "an unknown type", As: "user1", Method: "POST", Path: "/api/notifications",
			Body: `{"type":"everything","notificators":"web"}`, Status: 400, Want: []string{"type must be one of"}},
		{Name: "an unknown channel", As: "user1", Method: "POST", Path: "/api/notifications",
			Body: `{"type":"ignitionOn","notificators":"web,pigeon"}`, Status: 400, Want: []string{"notificators must be among"}},
		{Name: "types", As: "user1", Method: "GET", Path: "/api/notifications/types", Status: 200,
			Want: []string{`{"type":"deviceOnline"}`, `{"type":"geofenceExit"}`, `{"type":"driverChanged"}`}},
		{Name: "channels of a server without mail", As: "user1", Method: "GET", Path: "/api/notifications/notificators", Status: 200,
			Want: []string{`[{"type":"web"}]`}},
		{Name: "a channel that is not configured", As: "user1", Method: "POST", Path: "/api/notifications/test/mail", Status: 400,
			Want: []string{"not configured"}},
		{Name: "no such channel", As: "user1", Method: "POST", Path: "/api/notifications/test/pigeon", Status: 404},
		{Name: "announcements are for managers", As: "user1", Method: "POST", Path: "/api/notifications/send/mail",
			Body: `{"subject":"s","body":"b"}`, Status: 403},
	})
}

// TestNotificationChannels drives the pipeline end to end: a notification
// on every channel, real receivers on loopback, an event from the ingest.
func TestNotificationChannels(t *testing.T) {
	box := sinktest.NewInbox()
	e := newEnvWith(t, func(o *app.Options) {
		o.Channels = notify.Channels{Mail: sinktest.SMTP(t, box), SMS: sinktest.Gateway(t, box, nil),
			Telegram: sinktest.Telegram(t, box), Webhook: sinktest.Webhook(t, box), TelegramChat: "-100"}
	})
	user1 := e.caller(t, "user1")
	_, err := e.Core.Accounts.UpdateUser(model.System(), user1.ID, func(u *model.User) error {
		u.Phone, u.Attributes = "+4930111", model.Attributes{"telegramChatId": "42", "timezone": "Europe/Berlin"}
		return nil
	})
	must(t, err)
	if r := e.Call(t, "user1", "GET", "/api/notifications/notificators", ""); !strings.Contains(r.Body, `"telegram"`) ||
		!strings.Contains(r.Body, `"webhook"`) || strings.Contains(r.Body, `"firebase"`) {
		t.Fatalf("notificators %s", r.Body)
	}
	// One notification for every device user1 sees on every channel, and
	// another naming mail again, linked to d1: mail goes once.
	for _, body := range []string{`{"type":"ignitionOn","always":true,"notificators":"web,mail,sms,telegram,webhook"}`,
		`{"type":"ignitionOn","notificators":"mail"}`} {
		r := e.Call(t, "user1", "POST", "/api/notifications", body)
		if r.Status != 200 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		var n model.Notification
		r.Decode(t, &n)
		e.IDs["n"] = n.ID
	}
	e.link(t, "device", "d1", "notification", "n")
	// The server's speed unit is the default of users who chose none.
	_, err = e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error {
		s.Attributes = model.Attributes{"speedUnit": "mph"}
		return nil
	})
	must(t, err)

	sub := e.Core.Subscribe(e.caller(t, "user1"), "")
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Core.Notify.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	ignition := func(on bool) {
		t.Helper()
		now := time.Now().UTC()
		must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{Protocol: "test", FixTime: now, DeviceTime: now, Valid: true,
			Latitude: 52.52, Longitude: 13.405, Speed: 10, Attributes: model.Attributes{"ignition": on}}}))
		sinktest.WaitIdle(t, e.Core.Notify)
	}
	ignition(false)
	ignition(true)

	for _, to := range []string{"user1@example.com", "+4930111", "42", "webhook"} {
		got := box.To(to)
		if len(got) != 1 {
			t.Fatalf("%s received %d messages, want 1: %q", to, len(got), got)
		}
		if to != "webhook" && !strings.Contains(got[0], "Truck 1: ignition on at ") {
			t.Errorf("%s received %q", to, got[0])
		}
	}
	if hook := box.To("webhook")[0]; !strings.Contains(hook, `"type":"ignitionOn"`) || !strings.Contains(hook, `"users":[`+itoa(user1.ID)+`]`) {
		t.Errorf("webhook body %s", hook)
	}
	if mail := box.To("user1@example.com")[0]; !strings.Contains(mail, "CET") && !strings.Contains(mail, "CEST") {
		t.Errorf("the mail's time is not in the user's zone: %s", mail)
	} else if !strings.Contains(mail, "speed 12 mph") {
		t.Errorf("the mail's speed is not in the server's unit: %s", mail)
	}
	if n := box.Count(); n != 4 {
		t.Errorf("%d messages in all, want 4 (nobody else sees d1's notification)", n)
	}
	socketEvent(t, sub, model.EventIgnitionOn)

	// The user switches ignition off (/api2 K2): no channel tells them.
	must(t, e.Core.Notify.SetNotification(e.caller(t, "user1"), "ignition", false))
	ignition(false)
	ignition(true)
	if n := box.Count(); n != 4 {
		t.Errorf("%d messages after the switch went off, want still 4", n)
	}

	// Test messages reach the caller on each channel.
	if r := e.Call(t, "user1", "POST", "/api/notifications/test", ""); r.Status != 204 {
		t.Fatalf("test: %d %s", r.Status, r.Body)
	}
	if got := box.To("42"); len(got) != 2 || !strings.Contains(got[1], "test notification") {
		t.Errorf("telegram after the test: %q", got)
	}
	if r := e.Call(t, "user2", "POST", "/api/notifications/test/sms", ""); r.Status != 400 || !strings.Contains(r.Body, "no address") {
		t.Errorf("a test SMS to a user without a phone: %d %s", r.Status, r.Body)
	}
	// An announcement from a manager reaches the users it manages.
	if r := e.Call(t, "manager1", "POST", "/api/notifications/send/mail", `{"subject":"Depot closed","body":"Closed on Monday"}`); r.Status != 204 {
		t.Fatalf("announcement: %d %s", r.Status, r.Body)
	}
	if got := box.To("user1@example.com"); len(got) != 3 || !strings.Contains(got[2], "Closed on Monday") {
		t.Errorf("user1's mail after the announcement: %d", len(got))
	}
	if got := box.To("user2@example.com"); len(got) != 0 {
		t.Errorf("user2, not manager1's, got the announcement")
	}
}

// socketEvent waits for an event of type typ on the subscription, with
// the message Traccar's web app shows.
func socketEvent(t *testing.T, sub *live.Subscription, typ string) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case u := <-sub.C:
			for _, ev := range u.Events {
				if ev.Type == typ {
					if msg, _ := ev.Attributes["message"].(string); !strings.HasPrefix(msg, "Truck 1: ignition on at ") {
						t.Errorf("the socket's event carries message %q", msg)
					}
					return
				}
			}
		case <-timeout:
			t.Fatalf("no %s event on the socket", typ)
		}
	}
}
