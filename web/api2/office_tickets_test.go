package api2_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// aliceTicket is the usual prepare: alice has ticket t1 with file f1 and
// response r1 from the admin.
func aliceTicket(t *testing.T, e *officeEnv) {
	e.file("f1", "alice")
	e.ticket("t1", "alice", "GPS not updating", "f1")
	e.respond("r1", "admin", "t1", "Please restart the tracker")
}

func TestTickets(t *testing.T) {
	runOffice(t, []officeScenario{
		{Name: "create", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Before: func(t *testing.T, e *officeEnv) { e.file("f1", "alice") },
			Body:   `{"title":" Map blank ","description":"since today","category":"Tracking","fileIds":["{f1}"],"device":{"value":"imei-car","name":"car"},"status":"closed","ticket_no":5,"userId":"{bob}"}`,
			Status: 200, Want: []string{`"success":true`, `"ticket_no":1001`, `"title":"Map blank"`},
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Data struct{ ID model.TextID } }
				r.Decode(t, &out)
				got, err := e.Core.Office.Ticket(e.user("alice"), int64(out.Data.ID))
				e.must(err)
				if got.Status != "open" || got.Category != "tracking" || got.DeviceInfo != "car (imei-car)" ||
					got.UserInfo != "Alice <alice@example.com>" || got.Owner() != e.IDs["alice"] {
					t.Errorf("stored ticket %+v", got)
				}
				f, err := e.Core.Office.File(e.user("alice"), e.IDs["f1"])
				e.must(err)
				if f.AttachedTo != fmt.Sprintf("ticket:%d", out.Data.ID) {
					t.Errorf("file attached to %q", f.AttachedTo)
				}
			}},
		{Name: "numbers increase", As: "bob", Method: "POST", Path: "/api2/support/tickets",
			Before: func(t *testing.T, e *officeEnv) { e.ticket("t1", "alice", "first"); e.ticket("t2", "alice", "second") },
			Body:   `{"title":"third"}`, Status: 200, Want: []string{`"ticket_no":1003`}},
		{Name: "title required", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Body: `{"description":"no title"}`, Status: 400, Want: []string{"title is required"}, Unchanged: true},
		{Name: "unknown category", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Body: `{"title":"x","category":"weather"}`, Status: 400, Want: []string{"category must be one of"}, Unchanged: true},
		{Name: "another user's file", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Before: func(t *testing.T, e *officeEnv) { e.file("fb", "bob") },
			Body:   `{"title":"x","fileIds":["{fb}"]}`, Status: 400, Want: []string{"is not one of your files"}, Unchanged: true},
		{Name: "a file already attached elsewhere", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Before: aliceTicket, Body: `{"title":"x","fileIds":["{f1}"]}`, Status: 400,
			Want: []string{"already attached to ticket:{t1}"}, Unchanged: true},
		{Name: "malformed body", As: "alice", Method: "POST", Path: "/api2/support/tickets",
			Body: `{"title":`, Status: 400, Unchanged: true},
		{Name: "no session", Method: "GET", Path: "/api2/support/tickets", Status: 401},

		{Name: "get own", As: "alice", Method: "GET", Path: "/api2/support/tickets/{t1}", Before: aliceTicket,
			Status: 200, Want: []string{`"id":"{t1}"`, `"ticket_no":1001`, `"status":"open"`, `"fileIds":["{f1}"]`, `"userId":"{alice}"`}},
		{Name: "admin reads any", As: "admin", Method: "GET", Path: "/api2/support/tickets/{t1}", Before: aliceTicket,
			Status: 200, Want: []string{"GPS not updating"}},
		{Name: "another user's ticket is not found", As: "bob", Method: "GET", Path: "/api2/support/tickets/{t1}",
			Before: aliceTicket, Status: 404, Absent: []string{"GPS"}},
		{Name: "id that cannot exist", As: "alice", Method: "GET", Path: "/api2/support/tickets/abc", Status: 404},

		{Name: "delete own with responses and files", As: "alice", Method: "DELETE", Path: "/api2/support/tickets/{t1}",
			Before: func(t *testing.T, e *officeEnv) {
				aliceTicket(t, e)
				e.file("fa", "admin")
				e.respond("r2", "admin", "t1", "see attachment", "fa")
			},
			Status: 200, Want: []string{`"message":"Ticket deleted successfully!"`, `"success":true`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if snap := e.snapshot(); snap != "disk []\n" {
					t.Errorf("left behind:\n%s", snap)
				}
			}},
		{Name: "another user cannot delete", As: "bob", Method: "DELETE", Path: "/api2/support/tickets/{t1}",
			Before: aliceTicket, Status: 404, Unchanged: true},
		{Name: "admin cannot delete a user's ticket", As: "admin", Method: "DELETE", Path: "/api2/support/tickets/{t1}",
			Before: aliceTicket, Status: 403, Unchanged: true},
	})
}

func TestTicketList(t *testing.T) {
	// alice has 12 tickets "alice 1".."alice 12"; bob one about his van.
	many := func(t *testing.T, e *officeEnv) {
		for i := 1; i <= 12; i++ {
			e.ticket(fmt.Sprintf("a%d", i), "alice", fmt.Sprintf("alice %d", i))
		}
		_, err := e.Core.Office.CreateTicket(e.user("bob"), func(t *model.Ticket) error {
			t.Title, t.Device = "Van offline", &model.TicketDevice{Name: "van", Value: "imei-van"}
			return nil
		})
		e.must(err)
	}
	titles := func(want ...string) func(*testing.T, *officeEnv, *webtest.Response) {
		return listTitles("data", want...)
	}
	runOffice(t, []officeScenario{
		{Name: "defaults: page 1, limit 10, newest first, own only", As: "alice", Method: "GET",
			Path: "/api2/support/tickets", Before: many, Status: 200,
			Want:  []string{`"page":1`, `"limit":10`, `"total":12`},
			After: titles("alice 12", "alice 11", "alice 10", "alice 9", "alice 8", "alice 7", "alice 6", "alice 5", "alice 4", "alice 3")},
		{Name: "second page", As: "alice", Method: "GET", Path: "/api2/support/tickets?page=2", Before: many,
			Status: 200, Want: []string{`"page":2`, `"total":12`}, After: titles("alice 2", "alice 1")},
		{Name: "past the last page", As: "alice", Method: "GET", Path: "/api2/support/tickets?page=3", Before: many,
			Status: 200, Want: []string{`"data":[]`, `"total":12`}},
		{Name: "huge page", As: "alice", Method: "GET", Path: "/api2/support/tickets?page=9223372036854775807&limit=100",
			Before: many, Status: 200, Want: []string{`"data":[]`}},
		{Name: "limit", As: "alice", Method: "GET", Path: "/api2/support/tickets?limit=5&page=3", Before: many,
			Status: 200, Want: []string{`"limit":5`}, After: titles("alice 2", "alice 1")},
		{Name: "limit capped at 100", As: "alice", Method: "GET", Path: "/api2/support/tickets?limit=1000",
			Before: many, Status: 200, Want: []string{`"limit":100`, `"total":12`}},
		{Name: "bad page", As: "alice", Method: "GET", Path: "/api2/support/tickets?page=0", Status: 400,
			Want: []string{"page must be a whole number from 1"}},
		{Name: "bad limit", As: "alice", Method: "GET", Path: "/api2/support/tickets?limit=ten", Status: 400},
		{Name: "search title", As: "alice", Method: "GET", Path: "/api2/support/tickets?search=ALICE%201", Before: many,
			Status: 200, Want: []string{`"total":4`}, After: titles("alice 12", "alice 11", "alice 10", "alice 1")},
		{Name: "search user info", As: "admin", Method: "GET", Path: "/api2/support/tickets?search=bob@example", Before: many,
			Status: 200, Want: []string{`"total":1`}, After: titles("Van offline")},
		{Name: "search device info", As: "admin", Method: "GET", Path: "/api2/support/tickets?search=imei-van", Before: many,
			Status: 200, After: titles("Van offline")},
		{Name: "search never reaches another user's tickets", As: "alice", Method: "GET",
			Path: "/api2/support/tickets?search=van", Before: many, Status: 200, Want: []string{`"total":0`, `"data":[]`}},
		{Name: "admin sees all", As: "admin", Method: "GET", Path: "/api2/support/tickets?limit=2", Before: many,
			Status: 200, Want: []string{`"total":13`}, After: titles("Van offline", "alice 12")},
		{Name: "status filter", As: "alice", Method: "GET", Path: "/api2/support/tickets?status=closed",
			Before: func(t *testing.T, e *officeEnv) {
				many(t, e)
				_, err := e.Core.Office.SetTicketStatus(e.user("alice"), e.IDs["a3"], "closed")
				e.must(err)
			},
			Status: 200, Want: []string{`"total":1`}, After: titles("alice 3")},
	})
}

func TestTicketStatus(t *testing.T) {
	status := func(want string) func(t *testing.T, e *officeEnv, _ *webtest.Response) {
		return func(t *testing.T, e *officeEnv, _ *webtest.Response) {
			got, err := e.Core.Office.Ticket(model.System(), e.IDs["t1"])
			e.must(err)
			if got.Status != want {
				t.Errorf("status %s, want %s", got.Status, want)
			}
		}
	}
	setTo := func(s string) func(t *testing.T, e *officeEnv) {
		return func(t *testing.T, e *officeEnv) {
			aliceTicket(t, e)
			_, err := e.Core.Office.SetTicketStatus(e.user("admin"), e.IDs["t1"], s)
			e.must(err)
		}
	}
	path := "/api2/support/tickets/{t1}/status"
	runOffice(t, []officeScenario{
		{Name: "admin: open to in_progress", As: "admin", Method: "PUT", Path: path, Before: aliceTicket,
			Body: `{"status":"in_progress"}`, Status: 200, Want: []string{`"status":"in_progress"`}, After: status("in_progress")},
		{Name: "admin: closed to resolved is no transition", As: "admin", Method: "PUT", Path: path,
			Before: setTo("closed"), Body: `{"status":"resolved"}`, Status: 400,
			Want: []string{"cannot go from closed to resolved"}, After: status("closed")},
		{Name: "admin: reopen", As: "admin", Method: "PUT", Path: path, Before: setTo("closed"),
			Body: `{"status":"open"}`, Status: 200, After: status("open")},
		{Name: "unknown status", As: "admin", Method: "PUT", Path: path, Before: aliceTicket,
			Body: `{"status":"lost"}`, Status: 400, Unchanged: true},
		{Name: "creator closes", As: "alice", Method: "PUT", Path: path, Before: aliceTicket,
			Body: `{"status":"closed"}`, Status: 200, After: status("closed")},
		{Name: "creator reopens a resolved ticket", As: "alice", Method: "PUT", Path: path, Before: setTo("resolved"),
			Body: `{"status":"open"}`, Status: 200, After: status("open")},
		{Name: "creator cannot resolve", As: "alice", Method: "PUT", Path: path, Before: aliceTicket,
			Body: `{"status":"resolved"}`, Status: 403, Unchanged: true},
		{Name: "another user", As: "bob", Method: "PUT", Path: path, Before: aliceTicket,
			Body: `{"status":"closed"}`, Status: 404, Unchanged: true},
	})
}

func TestTicketResponses(t *testing.T) {
	closed := func(t *testing.T, e *officeEnv) {
		aliceTicket(t, e)
		_, err := e.Core.Office.SetTicketStatus(e.user("admin"), e.IDs["t1"], "closed")
		e.must(err)
	}
	pending := func(t *testing.T, e *officeEnv) {
		aliceTicket(t, e)
		_, err := e.Core.Office.SetTicketStatus(e.user("admin"), e.IDs["t1"], "pending")
		e.must(err)
	}
	runOffice(t, []officeScenario{
		{Name: "list", As: "alice", Method: "GET", Path: "/api2/support/tickets/{t1}/responses",
			Before: func(t *testing.T, e *officeEnv) { aliceTicket(t, e); e.respond("r2", "alice", "t1", "did that") },
			Status: 200,
			Want: []string{`"total":2`, `"ticket_id":"{t1}"`, `"senderInfo":{"name":"Administrator","id":"{admin}"}`,
				`"senderInfo":{"name":"Alice","id":"{alice}"}`},
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Data []model.TicketResponse }
				r.Decode(t, &out)
				if len(out.Data) != 2 || out.Data[0].Message != "Please restart the tracker" {
					t.Errorf("not oldest first: %+v", out.Data)
				}
			}},
		{Name: "list of another user's ticket", As: "bob", Method: "GET", Path: "/api2/support/tickets/{t1}/responses",
			Before: aliceTicket, Status: 404, Absent: []string{"restart"}},

		{Name: "creator responds", As: "alice", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: aliceTicket, Body: `{"ticketId":"{t1}","content":"still broken"}`, Status: 200,
			Want: []string{`"ticket_id":"{t1}"`, `"message":"still broken"`, `"senderInfo":{"name":"Alice","id":"{alice}"}`}},
		{Name: "creator's answer reopens a pending ticket", As: "alice", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: pending, Body: `{"ticketId":{t1},"message":"here you go"}`, Status: 200,
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if got, _ := e.Core.Office.Ticket(model.System(), e.IDs["t1"]); got.Status != "open" {
					t.Errorf("status %s, want open", got.Status)
				}
			}},
		{Name: "admin responds to any ticket", As: "admin", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: aliceTicket, Body: `{"ticketId":"{t1}","content":"on it"}`, Status: 200,
			Want: []string{`"senderInfo":{"name":"Administrator"`}},
		{Name: "another user cannot respond", As: "bob", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: aliceTicket, Body: `{"ticketId":"{t1}","content":"me too"}`, Status: 404, Unchanged: true},
		{Name: "closed ticket", As: "alice", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: closed, Body: `{"ticketId":"{t1}","content":"hello?"}`, Status: 400,
			Want: []string{"the ticket is closed"}, Unchanged: true},
		{Name: "ticketId required", As: "alice", Method: "POST", Path: "/api2/support/tickets/respond",
			Body: `{"content":"x"}`, Status: 400, Want: []string{"ticketId is required"}},
		{Name: "content or files required", As: "alice", Method: "POST", Path: "/api2/support/tickets/respond",
			Before: aliceTicket, Body: `{"ticketId":"{t1}"}`, Status: 400, Unchanged: true},

		{Name: "author edits", As: "admin", Method: "PUT", Path: "/api2/support/tickets/responses/{r1}",
			Before: aliceTicket, Body: `{"message":"Please restart it twice","ticket_id":"999","senderInfo":{"name":"x"}}`,
			Status: 200, Want: []string{`"ticket_id":"{t1}"`, `"message":"Please restart it twice"`, `"senderInfo":{"name":"Administrator"`}},
		{Name: "ticket owner may not edit the admin's response", As: "alice", Method: "PUT",
			Path: "/api2/support/tickets/responses/{r1}", Before: aliceTicket, Body: `{"message":"changed"}`,
			Status: 403, Unchanged: true},
		{Name: "another user: not found", As: "bob", Method: "PUT", Path: "/api2/support/tickets/responses/{r1}",
			Before: aliceTicket, Body: `{"message":"changed"}`, Status: 404, Unchanged: true},
		{Name: "author deletes", As: "admin", Method: "DELETE", Path: "/api2/support/tickets/responses/{r1}",
			Before: aliceTicket, Status: 200, Want: []string{`"message":"Response deleted successfully!"`},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, _, err := e.Core.Office.TicketResponses(e.user("alice"), e.IDs["t1"], model.Query{})
				e.must(err)
				if len(list) != 0 {
					t.Errorf("responses left: %d", len(list))
				}
			}},
		{Name: "another user cannot delete", As: "bob", Method: "DELETE", Path: "/api2/support/tickets/responses/{r1}",
			Before: aliceTicket, Status: 404, Unchanged: true},
		{Name: "ticket owner cannot delete the admin's response", As: "alice", Method: "DELETE",
			Path: "/api2/support/tickets/responses/{r1}", Before: aliceTicket, Status: 403, Unchanged: true},
	})
}
