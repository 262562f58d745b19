package api2_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// days is officeNow shifted by n days.
func days(n int) time.Time { return officeNow.AddDate(0, 0, n) }

// aliceDocs: alice's insurance (expires in 10 days, file f1), her
// registration (in 100 days) and licence (none); bob's permit (in 3 days).
// readonlyAlice makes alice a read-only (demo) account.
func readonlyAlice(t *testing.T, e *officeEnv) {
	_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.Readonly = true; return nil })
	e.must(err)
}

func aliceDocs(t *testing.T, e *officeEnv) {
	e.file("f1", "alice")
	e.document("ins", "alice", "insurance", days(10), "f1")
	e.document("reg", "alice", "registration", days(100))
	e.document("lic", "alice", "licence", time.Time{})
	e.document("per", "bob", "permit", days(3))
}

func TestDocuments(t *testing.T) {
	create := `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance","identificationNo":"P-1",
		"amount":120.5,"issuedDate":"2025-01-01","expiryDate":"2025-06-20T00:00:00+02:00","fileIds":["{f1}"]}`
	runOffice(t, []officeScenario{
		{Name: "create", As: "alice", Method: "POST", Path: "/api2/documents", Body: create,
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") }, Status: 201,
			Want: []string{`"$id":"`, `"$createdAt":"2025-06-01T09:00:00Z"`, `"$updatedAt":"2025-06-01T09:00:00Z"`,
				`"documentOf":"vehicle"`, `"entityId":"{car}"`, `"amount":120.5`, `"issuedDate":"2025-01-01T00:00:00Z"`,
				`"expiryDate":"2025-06-19T22:00:00Z"`, `"renewalDate":null`, `"status":"expiring"`, `"userId":"{alice}"`,
				`"fileIds":["{f1}"]`}},
		{Name: "create for a driver", As: "alice", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"Driver","entityId":{drv},"documentType":"licence"}`, Status: 201,
			Want: []string{`"documentOf":"driver"`, `"status":"valid"`}},
		{Name: "another user's vehicle", As: "bob", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance"}`, Status: 400,
			Want: []string{"entityId {car} is not a vehicle you can see"}, Unchanged: true},
		{Name: "another user's driver", As: "bob", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"driver","entityId":"{drv}","documentType":"licence"}`, Status: 400, Unchanged: true},
		{Name: "no such vehicle, even for an administrator", As: "admin", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"vehicle","entityId":"999","documentType":"insurance"}`, Status: 400, Unchanged: true},
		{Name: "unknown documentOf", As: "alice", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"boat","entityId":"{car}","documentType":"insurance"}`, Status: 400,
			Want: []string{"documentOf must be vehicle or driver"}, Unchanged: true},
		{Name: "required fields", As: "alice", Method: "POST", Path: "/api2/documents",
			Body: `{"entityId":"{car}"}`, Status: 400, Want: []string{"documentOf, documentType are required"}, Unchanged: true},
		{Name: "entityId required", As: "alice", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"vehicle","documentType":"insurance"}`, Status: 400, Want: []string{"entityId is required"}},
		{Name: "bad date", As: "alice", Method: "POST", Path: "/api2/documents",
			Body:   `{"documentOf":"vehicle","entityId":"{car}","documentType":"insurance","expiryDate":"20/06/2025"}`,
			Status: 400, Want: []string{"is not an ISO 8601 date"}, Unchanged: true},
		{Name: "bad entityId", As: "alice", Method: "POST", Path: "/api2/documents",
			Body: `{"documentOf":"vehicle","entityId":"car","documentType":"insurance"}`, Status: 400, Unchanged: true},

		{Name: "list own, newest first", As: "alice", Method: "GET", Path: "/api2/documents", Before: aliceDocs,
			Status: 200, Want: []string{`"total":3`}, Absent: []string{"permit"},
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Documents []model.Document }
				r.Decode(t, &out)
				if len(out.Documents) != 3 || out.Documents[0].DocumentType != "licence" || out.Documents[2].DocumentType != "insurance" {
					t.Errorf("order %+v", out.Documents)
				}
			}},
		{Name: "get own", As: "alice", Method: "GET", Path: "/api2/documents/{reg}", Before: aliceDocs,
			Status: 200, Want: []string{`"$id":"{reg}"`, `"status":"valid"`}},
		{Name: "another user's document", As: "bob", Method: "GET", Path: "/api2/documents/{reg}", Before: aliceDocs,
			Status: 404, Absent: []string{"registration"}},
		{Name: "administrators do not read users' documents", As: "admin", Method: "GET", Path: "/api2/documents/{reg}",
			Before: aliceDocs, Status: 404},

		{Name: "update merges and keeps what the service sets", As: "alice", Method: "PUT", Path: "/api2/documents/{ins}",
			Before: func(t *testing.T, e *officeEnv) { aliceDocs(t, e); e.setNow(days(1)) },
			Body:   `{"notes":"renew soon","status":"with broker","$id":"77","userId":"{bob}","$createdAt":"2020-01-01T00:00:00Z"}`,
			Status: 200,
			Want: []string{`"$id":"{ins}"`, `"notes":"renew soon"`, `"status":"with broker"`, `"documentType":"insurance"`,
				`"userId":"{alice}"`, `"$createdAt":"2025-06-01T09:00:00Z"`, `"$updatedAt":"2025-06-02T09:00:00Z"`, `"fileIds":["{f1}"]`}},
		{Name: "sending a computed status keeps it computed", As: "alice", Method: "PUT", Path: "/api2/documents/{reg}",
			Before: aliceDocs, Body: `{"status":"expired"}`, Status: 200, Want: []string{`"status":"valid"`}},
		{Name: "update moves the files", As: "alice", Method: "PUT", Path: "/api2/documents/{ins}",
			Before: func(t *testing.T, e *officeEnv) { aliceDocs(t, e); e.file("f2", "alice") }, Body: `{"fileIds":["{f2}"]}`, Status: 200,
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				f1, _ := e.Core.Office.File(e.user("alice"), e.IDs["f1"])
				f2, _ := e.Core.Office.File(e.user("alice"), e.IDs["f2"])
				if f1.AttachedTo != "" || f2.AttachedTo != fmt.Sprintf("document:%d", e.IDs["ins"]) {
					t.Errorf("attached: f1 %q, f2 %q", f1.AttachedTo, f2.AttachedTo)
				}
			}},
		{Name: "update to another user's vehicle", As: "alice", Method: "PUT", Path: "/api2/documents/{ins}",
			Before: aliceDocs, Body: `{"entityId":"{van}"}`, Status: 400, Unchanged: true},
		{Name: "update of another user's document", As: "bob", Method: "PUT", Path: "/api2/documents/{ins}",
			Before: aliceDocs, Body: `{"notes":"mine now"}`, Status: 404, Unchanged: true},

		{Name: "delete with its files", As: "alice", Method: "DELETE", Path: "/api2/documents/{ins}", Before: aliceDocs,
			Status: 200, Want: []string{`"message":"Document deleted successfully"`, `"documentId":"{ins}"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if _, err := e.Core.Office.File(e.user("alice"), e.IDs["f1"]); !errors.Is(err, model.ErrNotFound) {
					t.Errorf("file f1: %v", err)
				}
				if disk := e.onDisk(); len(disk) != 0 {
					t.Errorf("on disk: %v", disk)
				}
			}},
		{Name: "delete of another user's document", As: "bob", Method: "DELETE", Path: "/api2/documents/{ins}",
			Before: aliceDocs, Status: 404, Unchanged: true},
		{Name: "no delete by a read-only account", As: "alice", Method: "DELETE", Path: "/api2/documents/{ins}",
			Before: func(t *testing.T, e *officeEnv) { aliceDocs(t, e); readonlyAlice(t, e) }, Status: 403, Unchanged: true},

		{Name: "expiry info: dated documents, soonest first", As: "alice", Method: "GET", Path: "/api2/documents/expiry-info",
			Before: aliceDocs, Status: 200, Want: []string{`"total":2`}, Absent: []string{"licence", "permit"},
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
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
		d, err := e.Core.Office.Document(e.user("alice"), e.IDs["d"])
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
			n, err := e.Core.Office.NotifyDocumentExpiry(notify)
			e.must(err)
			if n != len(sent)-before {
				t.Fatalf("day %d: reported %d, sent %d", day, n, len(sent)-before)
			}
			for _, s := range sent[before:] {
				got[40-day] = s.title
				if s.user != e.IDs["alice"] {
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
	d, err := e.Core.Office.Document(e.user("alice"), e.IDs["ins"])
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
	if n, err := e.Core.Office.NotifyDocumentExpiry(notify); n != 0 || err == nil {
		t.Fatalf("failed delivery: %d, %v", n, err)
	}
	failing = false
	if n, err := e.Core.Office.NotifyDocumentExpiry(notify); n != 2 || err != nil {
		t.Fatalf("retry: %d, %v", n, err)
	}
	// One reminder each: the most urgent reached, never the skipped ones.
	if fmt.Sprint(titles) != "[Document expired Document expiring]" {
		t.Fatalf("titles %v", titles)
	}
	// A new expiry date starts the reminders afresh.
	_, err := e.Core.Office.UpdateDocument(e.user("alice"), e.IDs["soon"], func(d *model.Document) error {
		d.ExpiryDate = model.Date{Time: days(20)}
		return nil
	})
	e.must(err)
	if n, err := e.Core.Office.NotifyDocumentExpiry(notify); n != 1 || err != nil || titles[2] != "Document expiring" {
		t.Fatalf("after renewal: %d, %v, %v", n, err, titles)
	}
	if n, _ := e.Core.Office.NotifyDocumentExpiry(notify); n != 0 {
		t.Fatalf("sent %d again", n)
	}
}
