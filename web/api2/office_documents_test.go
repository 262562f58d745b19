package api2_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// days is officeNow shifted by n days.
func days(n int) time.Time { return officeNow.AddDate(0, 0, n) }

// aliceDocs: alice's insurance (expires in 10 days, file f1), her
// registration (in 100 days) and licence (none); bob's permit (in 3 days).
// readonlyAlice makes alice a read-only (demo) account.
func readonlyAlice(e *officeEnv) {
	_, err := e.core.UpdateUser(app.System(), e.ids["alice"], func(u *model.User) error { u.Readonly = true; return nil })
	e.must(err)
}

func aliceDocs(e *officeEnv) {
	e.file("f1", "alice")
	e.document("ins", "alice", "insurance", days(10), "f1")
	e.document("reg", "alice", "registration", days(100))
	e.document("lic", "alice", "licence", time.Time{})
	e.document("per", "bob", "permit", days(3))
}

func TestDocuments(t *testing.T) {
	create := `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance","identificationNo":"P-1",
		"amount":120.5,"issuedDate":"2025-01-01","expiryDate":"2025-06-20T00:00:00+02:00","fileIds":["{f1}"]}`
	runOfficeScenarios(t, []officeScenario{
		{name: "create", as: "alice", method: "POST", path: "/api2/documents", body: create,
			prepare: func(e *officeEnv) { e.file("f1", "alice") }, status: 201,
			want: []string{`"$id":"`, `"$createdAt":"2025-06-01T09:00:00Z"`, `"$updatedAt":"2025-06-01T09:00:00Z"`,
				`"documentOf":"vehicle"`, `"entityId":"{car}"`, `"amount":120.5`, `"issuedDate":"2025-01-01T00:00:00Z"`,
				`"expiryDate":"2025-06-19T22:00:00Z"`, `"renewalDate":null`, `"status":"expiring"`, `"userId":"{alice}"`,
				`"fileIds":["{f1}"]`}},
		{name: "create for a driver", as: "alice", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"Driver","entityId":{drv},"documentType":"licence"}`, status: 201,
			want: []string{`"documentOf":"driver"`, `"status":"valid"`}},
		{name: "another user's vehicle", as: "bob", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance"}`, status: 400,
			want: []string{"entityId {car} is not a vehicle you can see"}, unchanged: true},
		{name: "another user's driver", as: "bob", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"driver","entityId":"{drv}","documentType":"licence"}`, status: 400, unchanged: true},
		{name: "no such vehicle, even for an administrator", as: "admin", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"vehicle","entityId":"999","documentType":"insurance"}`, status: 400, unchanged: true},
		{name: "unknown documentOf", as: "alice", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"boat","entityId":"{car}","documentType":"insurance"}`, status: 400,
			want: []string{"documentOf must be vehicle or driver"}, unchanged: true},
		{name: "required fields", as: "alice", method: "POST", path: "/api2/documents",
			body: `{"entityId":"{car}"}`, status: 400, want: []string{"documentOf, documentType are required"}, unchanged: true},
		{name: "entityId required", as: "alice", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"vehicle","documentType":"insurance"}`, status: 400, want: []string{"entityId is required"}},
		{name: "bad date", as: "alice", method: "POST", path: "/api2/documents",
			body:   `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance","expiryDate":"20/06/2025"}`,
			status: 400, want: []string{"is not an ISO 8601 date"}, unchanged: true},
		{name: "bad entityId", as: "alice", method: "POST", path: "/api2/documents",
			body: `{"documentOf":"vehicle","entityId":"car","documentType":"insurance"}`, status: 400, unchanged: true},

		{name: "list own, newest first", as: "alice", method: "GET", path: "/api2/documents", prepare: aliceDocs,
			status: 200, want: []string{`"total":3`}, absent: []string{"permit"},
			check: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Documents []office.Document }
				r.Decode(t, &out)
				if len(out.Documents) != 3 || out.Documents[0].DocumentType != "licence" || out.Documents[2].DocumentType != "insurance" {
					t.Errorf("order %+v", out.Documents)
				}
			}},
		{name: "get own", as: "alice", method: "GET", path: "/api2/documents/{reg}", prepare: aliceDocs,
			status: 200, want: []string{`"$id":"{reg}"`, `"status":"valid"`}},
		{name: "another user's document", as: "bob", method: "GET", path: "/api2/documents/{reg}", prepare: aliceDocs,
			status: 404, absent: []string{"registration"}},
		{name: "administrators do not read users' documents", as: "admin", method: "GET", path: "/api2/documents/{reg}",
			prepare: aliceDocs, status: 404},

		{name: "update merges and keeps what the service sets", as: "alice", method: "PUT", path: "/api2/documents/{ins}",
			prepare: func(e *officeEnv) { aliceDocs(e); e.setNow(days(1)) },
			body:    `{"notes":"renew soon","status":"with broker","$id":"77","userId":"{bob}","$createdAt":"2020-01-01T00:00:00Z"}`,
			status:  200,
			want: []string{`"$id":"{ins}"`, `"notes":"renew soon"`, `"status":"with broker"`, `"documentType":"insurance"`,
				`"userId":"{alice}"`, `"$createdAt":"2025-06-01T09:00:00Z"`, `"$updatedAt":"2025-06-02T09:00:00Z"`, `"fileIds":["{f1}"]`}},
		{name: "sending a computed status keeps it computed", as: "alice", method: "PUT", path: "/api2/documents/{reg}",
			prepare: aliceDocs, body: `{"status":"expired"}`, status: 200, want: []string{`"status":"valid"`}},
		{name: "update moves the files", as: "alice", method: "PUT", path: "/api2/documents/{ins}",
			prepare: func(e *officeEnv) { aliceDocs(e); e.file("f2", "alice") }, body: `{"fileIds":["{f2}"]}`, status: 200,
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				f1, _ := e.core.Office.File(e.user("alice"), e.ids["f1"])
				f2, _ := e.core.Office.File(e.user("alice"), e.ids["f2"])
				if f1.AttachedTo != "" || f2.AttachedTo != fmt.Sprintf("document:%d", e.ids["ins"]) {
					t.Errorf("attached: f1 %q, f2 %q", f1.AttachedTo, f2.AttachedTo)
				}
			}},
		{name: "update to another user's vehicle", as: "alice", method: "PUT", path: "/api2/documents/{ins}",
			prepare: aliceDocs, body: `{"entityId":"{van}"}`, status: 400, unchanged: true},
		{name: "update of another user's document", as: "bob", method: "PUT", path: "/api2/documents/{ins}",
			prepare: aliceDocs, body: `{"notes":"mine now"}`, status: 404, unchanged: true},

		{name: "delete with its files", as: "alice", method: "DELETE", path: "/api2/documents/{ins}", prepare: aliceDocs,
			status: 200, want: []string{`"message":"Document deleted successfully"`, `"documentId":"{ins}"`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if _, err := e.core.Office.File(e.user("alice"), e.ids["f1"]); !errors.Is(err, model.ErrNotFound) {
					t.Errorf("file f1: %v", err)
				}
				if disk := e.onDisk(); len(disk) != 0 {
					t.Errorf("on disk: %v", disk)
				}
			}},
		{name: "delete of another user's document", as: "bob", method: "DELETE", path: "/api2/documents/{ins}",
			prepare: aliceDocs, status: 404, unchanged: true},
		{name: "no delete by a read-only account", as: "alice", method: "DELETE", path: "/api2/documents/{ins}",
			prepare: func(e *officeEnv) { aliceDocs(e); readonlyAlice(e) }, status: 403, unchanged: true},

		{name: "expiry info: dated documents, soonest first", as: "alice", method: "GET", path: "/api2/documents/expiry-info",
			prepare: aliceDocs, status: 200, want: []string{`"total":2`}, absent: []string{"licence", "permit"},
			check: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct {
					Documents []struct {
						ID           model.TextID `json:"$id"`
						DocumentType string
						Status       string
						DaysLeft     int
						ExpiryDate   model.Date
					}
				}
				r.Decode(t, &out)
				got := fmt.Sprint(out.Documents[0].DocumentType, out.Documents[0].Status, out.Documents[0].DaysLeft, " ",
					out.Documents[1].DocumentType, out.Documents[1].Status, out.Documents[1].DaysLeft)
				if got != "insuranceexpiring10 registrationvalid100" {
					t.Errorf("expiry info %s", got)
				}
			}},
	})
}

// TestDocumentStatus walks one document past its expiry date.
func TestDocumentStatus(t *testing.T) {
	e := newOfficeEnv(t)
	e.document("d", "alice", "insurance", days(40))
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{days(0), "valid"}, {days(9), "valid"}, {days(10), "expiring"}, {days(39), "expiring"},
		{days(40).Add(14 * time.Hour), "expiring"}, {days(41), "expired"},
	} {
		e.setNow(c.at)
		d, err := e.core.Office.Document(e.user("alice"), e.ids["d"])
		e.must(err)
		if d.Status != c.want {
			t.Errorf("at %s: %s, want %s", c.at, d.Status, c.want)
		}
	}
}

// notice is one reminder the job sent.
type notice struct {
	user        int64
	title, body string
}

// TestExpiryReminders runs the daily job through a document's last 40
// days: 30, 7 and 1 days before and on the day, each once.
func TestExpiryReminders(t *testing.T) {
	e := newOfficeEnv(t)
	e.document("ins", "alice", "insurance", days(40))
	var sent []notice
	notify := func(user int64, title, body string) error {
		sent = append(sent, notice{user, title, body})
		return nil
	}
	got := map[int]string{} // days before expiry -> title
	for day := 0; day <= 45; day++ {
		for range 2 { // a second run the same day sends nothing
			e.setNow(days(day).Add(time.Duration(day%5) * time.Hour))
			before := len(sent)
			n, err := e.core.Office.NotifyDocumentExpiry(notify)
			e.must(err)
			if n != len(sent)-before {
				t.Fatalf("day %d: reported %d, sent %d", day, n, len(sent)-before)
			}
			for _, s := range sent[before:] {
				got[40-day] = s.title
				if s.user != e.ids["alice"] {
					t.Errorf("reminder to user %d", s.user)
				}
			}
		}
	}
	want := map[int]string{30: "Document expiring", 7: "Document expiring", 1: "Document expires tomorrow", 0: "Document expires today"}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(sent) != 4 {
		t.Fatalf("reminders %v (%d sent), want %v", got, len(sent), want)
	}
	if s := sent[1].body; s != "The insurance of vehicle car expires in 7 days, on 2025-07-11." {
		t.Errorf("body %q", s)
	}
	d, err := e.core.Office.Document(e.user("alice"), e.ids["ins"])
	e.must(err)
	if fmt.Sprint(d.ExpiryNotices) != "[30 7 1 0]" {
		t.Errorf("recorded %v", d.ExpiryNotices)
	}
}

func TestExpiryRemindersCatchUpRetryAndReset(t *testing.T) {
	e := newOfficeEnv(t)
	e.document("late", "bob", "permit", days(-2)) // already expired when created
	e.document("soon", "alice", "insurance", days(5))
	var titles []string
	failing := true
	notify := func(_ int64, title, _ string) error {
		if failing {
			return errors.New("push service down")
		}
		titles = append(titles, title)
		return nil
	}
	if n, err := e.core.Office.NotifyDocumentExpiry(notify); n != 0 || err == nil {
		t.Fatalf("failed delivery: %d, %v", n, err)
	}
	failing = false
	if n, err := e.core.Office.NotifyDocumentExpiry(notify); n != 2 || err != nil {
		t.Fatalf("retry: %d, %v", n, err)
	}
	// One reminder each: the most urgent reached, never the skipped ones.
	if fmt.Sprint(titles) != "[Document expired Document expiring]" {
		t.Fatalf("titles %v", titles)
	}
	// A new expiry date starts the reminders afresh.
	_, err := e.core.Office.UpdateDocument(e.user("alice"), e.ids["soon"], func(d *office.Document) error {
		d.ExpiryDate = model.Date{Time: days(20)}
		return nil
	})
	e.must(err)
	if n, err := e.core.Office.NotifyDocumentExpiry(notify); n != 1 || err != nil || titles[2] != "Document expiring" {
		t.Fatalf("after renewal: %d, %v, %v", n, err, titles)
	}
	if n, _ := e.core.Office.NotifyDocumentExpiry(notify); n != 0 {
		t.Fatalf("sent %d again", n)
	}
}
