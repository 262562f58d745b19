package api_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/sinktest"
)

// mailedEnv is the fixture with reports mailed through an SMTP receiver.
func mailedEnv(t *testing.T) (*env, *sinktest.Inbox) {
	box := sinktest.NewInbox()
	smtp := sinktest.SMTP(t, box)
	return newEnvWith(t, func(o *app.Options) { o.Reports.Mailer = smtp }), box
}

// attached waits for a mail to to and checks it carries report.xlsx.
func attached(t *testing.T, box *sinktest.Inbox, to string, n int) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(box.To(to)) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d mails to %s, want %d", len(box.To(to)), to, n)
		}
	}
	mail := box.To(to)[n-1]
	if !strings.Contains(mail, `filename="report.xlsx"`) {
		t.Errorf("mail without the workbook: %.600s", mail)
	}
	return mail
}

func TestReportByMail(t *testing.T) {
	e, box := mailedEnv(t)
	if r := e.Call(t, "user1", "GET", "/api/reports/route/mail?deviceId={d1}&"+day, ""); r.Status != 204 {
		t.Fatalf("mail: %d %s", r.Status, r.Body)
	}
	attached(t, box, "user1@example.com", 1)
	if r := e.Call(t, "user1", "GET", "/api/reports/route/mail?deviceId={d3}&"+day, ""); r.Status != 404 {
		t.Errorf("mailing another user's device: %d", r.Status)
	}
	// Without a mail server: a clear refusal.
	if r := newEnv(t).Call(t, "user1", "GET", "/api/reports/trips/mail?deviceId={d1}&"+day, ""); r.Status != 400 ||
		!strings.Contains(r.Body, "mail.smtp") {
		t.Errorf("no mail server: %d %s", r.Status, r.Body)
	}
}

func TestScheduledReports(t *testing.T) {
	e, box := mailedEnv(t)
	// A report of d1's trips for each day, 00:00 to 24:00 UTC, linked to
	// user1 and d1 as the web app links them; d3 is linked too, but user1
	// does not see it.
	r := e.Call(t, "user1", "POST", "/api/calendars", `{"name":"days","data":"`+
		b64("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20240101T000000Z\nDTEND:20240102T000000Z\nRRULE:FREQ=DAILY\nEND:VEVENT\nEND:VCALENDAR")+`"}`)
	var cal model.Calendar
	r.Decode(t, &cal)
	e.IDs["cal"] = cal.ID
	r = e.Call(t, "user1", "POST", "/api/reports", `{"type":"trips","description":"Daily trips","calendarId":{cal}}`)
	if r.Status != 200 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var rep model.Report
	r.Decode(t, &rep)
	e.IDs["rep"] = rep.ID
	if r := e.Call(t, "user1", "POST", "/api/permissions/bulk", `[{"deviceId":{d1},"reportId":{rep}}]`); r.Status != 204 {
		t.Fatalf("link: %d %s", r.Status, r.Body)
	}
	e.link(t, "device", "d3", "report", "rep")
	if r := e.Call(t, "user1", "POST", "/api/reports", `{"type":"trips"}`); r.Status != 400 {
		t.Errorf("a report without a calendar: %d", r.Status)
	}

	// The check after midnight of 2024-01-02 reports the 1st.
	n, err := e.Core.Fleet.RunScheduledReports(time.Date(2024, 1, 1, 23, 50, 0, 0, time.UTC), time.Date(2024, 1, 2, 0, 5, 0, 0, time.UTC))
	if err != nil || n != 1 {
		t.Fatalf("RunScheduledReports = %d, %v; want 1 mailed", n, err)
	}
	mail := attached(t, box, "user1@example.com", 1)
	if !strings.Contains(mail, "Subject: Daily trips") || !strings.Contains(mail, "2024-01-01 00:00 to 2024-01-02 00:00") {
		t.Errorf("mail %.800s", mail)
	}
	// The next quarter hour has nothing to report.
	if n, err := e.Core.Fleet.RunScheduledReports(time.Date(2024, 1, 2, 0, 5, 0, 0, time.UTC), time.Date(2024, 1, 2, 0, 20, 0, 0, time.UTC)); n != 0 || err != nil {
		t.Errorf("the next check: %d, %v", n, err)
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
