package api2_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// aliceTicket is the usual prepare: alice has ticket t1 with file f1 and
// response r1 from the admin.
func aliceTicket(e *officeEnv) {
	e.file("f1", "alice")
	e.ticket("t1", "alice", "GPS not updating", "f1")
	e.respond("r1", "admin", "t1", "Please restart the tracker")
}

func TestTickets(t *testing.T) {
	runOfficeScenarios(t, []officeScenario{
		{name: "create", as: "alice", method: "POST", path: "/api2/support/tickets",
			prepare: func(e *officeEnv) { e.file("f1", "alice") },
			body:    `{"title":" Map blank ","description":"since today","category":"Tracking","fileIds":["{f1}"],"device":{"value":"imei-car","name":"car"},"status":"closed","ticket_no":5,"userId":"{bob}"}`,
			status:  200, want: []string{`"success":true`, `"ticket_no":1001`, `"title":"Map blank"`},
			check: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Data struct{ ID model.TextID } }
				r.Decode(t, &out)
				got, err := e.core.Office.Ticket(e.user("alice"), int64(out.Data.ID))
				e.must(err)
				if got.Status != "open" || got.Category != "tracking" || got.DeviceInfo != "car (imei-car)" ||
					got.UserInfo != "Alice <alice@example.com>" || got.Owner() != e.ids["alice"] {
					t.Errorf("stored ticket %+v", got)
				}
				f, err := e.core.Office.File(e.user("alice"), e.ids["f1"])
				e.must(err)
				if f.AttachedTo != fmt.Sprintf("ticket:%d", out.Data.ID) {
					t.Errorf("file attached to %q", f.AttachedTo)
				}
			}},
		{name: "numbers increase", as: "bob", method: "POST", path: "/api2/support/tickets",
			prepare: func(e *officeEnv) { e.ticket("t1", "alice", "first"); e.ticket("t2", "alice", "second") },
			body:    `{"title":"third"}`, status: 200, want: []string{`"ticket_no":1003`}},
		{name: "title required", as: "alice", method: "POST", path: "/api2/support/tickets",
			body: `{"description":"no title"}`, status: 400, want: []string{"title is required"}, unchanged: true},
		{name: "unknown category", as: "alice", method: "POST", path: "/api2/support/tickets",
			body: `{"title":"x","category":"weather"}`, status: 400, want: []string{"category must be one of"}, unchanged: true},
		{name: "another user's file", as: "alice", method: "POST", path: "/api2/support/tickets",
			prepare: func(e *officeEnv) { e.file("fb", "bob") },
			body:    `{"title":"x","fileIds":["{fb}"]}`, status: 400, want: []string{"is not one of your files"}, unchanged: true},
		{name: "a file already attached elsewhere", as: "alice", method: "POST", path: "/api2/support/tickets",
			prepare: aliceTicket, body: `{"title":"x","fileIds":["{f1}"]}`, status: 400,
			want: []string{"already attached to ticket:{t1}"}, unchanged: true},
		{name: "malformed body", as: "alice", method: "POST", path: "/api2/support/tickets",
			body: `{"title":`, status: 400, unchanged: true},
		{name: "no session", method: "GET", path: "/api2/support/tickets", status: 401},

		{name: "get own", as: "alice", method: "GET", path: "/api2/support/tickets/{t1}", prepare: aliceTicket,
			status: 200, want: []string{`"id":"{t1}"`, `"ticket_no":1001`, `"status":"open"`, `"fileIds":["{f1}"]`, `"userId":"{alice}"`}},
		{name: "admin reads any", as: "admin", method: "GET", path: "/api2/support/tickets/{t1}", prepare: aliceTicket,
			status: 200, want: []string{"GPS not updating"}},
		{name: "another user's ticket is not found", as: "bob", method: "GET", path: "/api2/support/tickets/{t1}",
			prepare: aliceTicket, status: 404, absent: []string{"GPS"}},
		{name: "id that cannot exist", as: "alice", method: "GET", path: "/api2/support/tickets/abc", status: 404},

		{name: "delete own with responses and files", as: "alice", method: "DELETE", path: "/api2/support/tickets/{t1}",
			prepare: func(e *officeEnv) {
				aliceTicket(e)
				e.file("fa", "admin")
				e.respond("r2", "admin", "t1", "see attachment", "fa")
			},
			status: 200, want: []string{`"message":"Ticket deleted successfully!"`, `"success":true`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if snap := e.snapshot(); snap != "disk []\n" {
					t.Errorf("left behind:\n%s", snap)
				}
			}},
		{name: "another user cannot delete", as: "bob", method: "DELETE", path: "/api2/support/tickets/{t1}",
			prepare: aliceTicket, status: 404, unchanged: true},
		{name: "admin cannot delete a user's ticket", as: "admin", method: "DELETE", path: "/api2/support/tickets/{t1}",
			prepare: aliceTicket, status: 403, unchanged: true},
	})
}

func TestTicketList(t *testing.T) {
	// alice has 12 tickets "alice 1".."alice 12"; bob one about his van.
	many := func(e *officeEnv) {
		for i := 1; i <= 12; i++ {
			e.ticket(fmt.Sprintf("a%d", i), "alice", fmt.Sprintf("alice %d", i))
		}
		_, err := e.core.Office.CreateTicket(e.user("bob"), func(t *office.Ticket) error {
			t.Title, t.Device = "Van offline", &office.TicketDevice{Name: "van", Value: "imei-van"}
			return nil
		})
		e.must(err)
	}
	titles := func(want ...string) func(*testing.T, *officeEnv, *webtest.Response) {
		return listTitles("data", want...)
	}
	runOfficeScenarios(t, []officeScenario{
		{name: "defaults: page 1, limit 10, newest first, own only", as: "alice", method: "GET",
			path: "/api2/support/tickets", prepare: many, status: 200,
			want:  []string{`"page":1`, `"limit":10`, `"total":12`},
			check: titles("alice 12", "alice 11", "alice 10", "alice 9", "alice 8", "alice 7", "alice 6", "alice 5", "alice 4", "alice 3")},
		{name: "second page", as: "alice", method: "GET", path: "/api2/support/tickets?page=2", prepare: many,
			status: 200, want: []string{`"page":2`, `"total":12`}, check: titles("alice 2", "alice 1")},
		{name: "past the last page", as: "alice", method: "GET", path: "/api2/support/tickets?page=3", prepare: many,
			status: 200, want: []string{`"data":[]`, `"total":12`}},
		{name: "huge page", as: "alice", method: "GET", path: "/api2/support/tickets?page=9223372036854775807&limit=100",
			prepare: many, status: 200, want: []string{`"data":[]`}},
		{name: "limit", as: "alice", method: "GET", path: "/api2/support/tickets?limit=5&page=3", prepare: many,
			status: 200, want: []string{`"limit":5`}, check: titles("alice 2", "alice 1")},
		{name: "limit capped at 100", as: "alice", method: "GET", path: "/api2/support/tickets?limit=1000",
			prepare: many, status: 200, want: []string{`"limit":100`, `"total":12`}},
		{name: "bad page", as: "alice", method: "GET", path: "/api2/support/tickets?page=0", status: 400,
			want: []string{"page must be a whole number from 1"}},
		{name: "bad limit", as: "alice", method: "GET", path: "/api2/support/tickets?limit=ten", status: 400},
		{name: "search title", as: "alice", method: "GET", path: "/api2/support/tickets?search=ALICE%201", prepare: many,
			status: 200, want: []string{`"total":4`}, check: titles("alice 12", "alice 11", "alice 10", "alice 1")},
		{name: "search user info", as: "admin", method: "GET", path: "/api2/support/tickets?search=bob@example", prepare: many,
			status: 200, want: []string{`"total":1`}, check: titles("Van offline")},
		{name: "search device info", as: "admin", method: "GET", path: "/api2/support/tickets?search=imei-van", prepare: many,
			status: 200, check: titles("Van offline")},
		{name: "search never reaches another user's tickets", as: "alice", method: "GET",
			path: "/api2/support/tickets?search=van", prepare: many, status: 200, want: []string{`"total":0`, `"data":[]`}},
		{name: "admin sees all", as: "admin", method: "GET", path: "/api2/support/tickets?limit=2", prepare: many,
			status: 200, want: []string{`"total":13`}, check: titles("Van offline", "alice 12")},
		{name: "status filter", as: "alice", method: "GET", path: "/api2/support/tickets?status=closed",
			prepare: func(e *officeEnv) {
				many(e)
				_, err := e.core.Office.SetTicketStatus(e.user("alice"), e.ids["a3"], "closed")
				e.must(err)
			},
			status: 200, want: []string{`"total":1`}, check: titles("alice 3")},
	})
}

func TestTicketStatus(t *testing.T) {
	status := func(want string) func(t *testing.T, e *officeEnv, _ *webtest.Response) {
		return func(t *testing.T, e *officeEnv, _ *webtest.Response) {
			got, err := e.core.Office.Ticket(app.System(), e.ids["t1"])
			e.must(err)
			if got.Status != want {
				t.Errorf("status %s, want %s", got.Status, want)
			}
		}
	}
	setTo := func(s string) func(e *officeEnv) {
		return func(e *officeEnv) {
			aliceTicket(e)
			_, err := e.core.Office.SetTicketStatus(e.user("admin"), e.ids["t1"], s)
			e.must(err)
		}
	}
	path := "/api2/support/tickets/{t1}/status"
	runOfficeScenarios(t, []officeScenario{
		{name: "admin: open to in_progress", as: "admin", method: "PUT", path: path, prepare: aliceTicket,
			body: `{"status":"in_progress"}`, status: 200, want: []string{`"status":"in_progress"`}, check: status("in_progress")},
		{name: "admin: closed to resolved is no transition", as: "admin", method: "PUT", path: path,
			prepare: setTo("closed"), body: `{"status":"resolved"}`, status: 400,
			want: []string{"cannot go from closed to resolved"}, check: status("closed")},
		{name: "admin: reopen", as: "admin", method: "PUT", path: path, prepare: setTo("closed"),
			body: `{"status":"open"}`, status: 200, check: status("open")},
		{name: "unknown status", as: "admin", method: "PUT", path: path, prepare: aliceTicket,
			body: `{"status":"lost"}`, status: 400, unchanged: true},
		{name: "creator closes", as: "alice", method: "PUT", path: path, prepare: aliceTicket,
			body: `{"status":"closed"}`, status: 200, check: status("closed")},
		{name: "creator reopens a resolved ticket", as: "alice", method: "PUT", path: path, prepare: setTo("resolved"),
			body: `{"status":"open"}`, status: 200, check: status("open")},
		{name: "creator cannot resolve", as: "alice", method: "PUT", path: path, prepare: aliceTicket,
			body: `{"status":"resolved"}`, status: 403, unchanged: true},
		{name: "another user", as: "bob", method: "PUT", path: path, prepare: aliceTicket,
			body: `{"status":"closed"}`, status: 404, unchanged: true},
	})
}

func TestTicketResponses(t *testing.T) {
	closed := func(e *officeEnv) {
		aliceTicket(e)
		_, err := e.core.Office.SetTicketStatus(e.user("admin"), e.ids["t1"], "closed")
		e.must(err)
	}
	pending := func(e *officeEnv) {
		aliceTicket(e)
		_, err := e.core.Office.SetTicketStatus(e.user("admin"), e.ids["t1"], "pending")
		e.must(err)
	}
	runOfficeScenarios(t, []officeScenario{
		{name: "list", as: "alice", method: "GET", path: "/api2/support/tickets/{t1}/responses",
			prepare: func(e *officeEnv) { aliceTicket(e); e.respond("r2", "alice", "t1", "did that") },
			status:  200,
			want: []string{`"total":2`, `"ticket_id":"{t1}"`, `"senderInfo":{"name":"Administrator","id":"{admin}"}`,
				`"senderInfo":{"name":"Alice","id":"{alice}"}`},
			check: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var out struct{ Data []office.TicketResponse }
				r.Decode(t, &out)
				if len(out.Data) != 2 || out.Data[0].Message != "Please restart the tracker" {
					t.Errorf("not oldest first: %+v", out.Data)
				}
			}},
		{name: "list of another user's ticket", as: "bob", method: "GET", path: "/api2/support/tickets/{t1}/responses",
			prepare: aliceTicket, status: 404, absent: []string{"restart"}},

		{name: "creator responds", as: "alice", method: "POST", path: "/api2/support/tickets/respond",
			prepare: aliceTicket, body: `{"ticketId":"{t1}","content":"still broken"}`, status: 200,
			want: []string{`"ticket_id":"{t1}"`, `"message":"still broken"`, `"senderInfo":{"name":"Alice","id":"{alice}"}`}},
		{name: "creator's answer reopens a pending ticket", as: "alice", method: "POST", path: "/api2/support/tickets/respond",
			prepare: pending, body: `{"ticketId":{t1},"message":"here you go"}`, status: 200,
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if got, _ := e.core.Office.Ticket(app.System(), e.ids["t1"]); got.Status != "open" {
					t.Errorf("status %s, want open", got.Status)
				}
			}},
		{name: "admin responds to any ticket", as: "admin", method: "POST", path: "/api2/support/tickets/respond",
			prepare: aliceTicket, body: `{"ticketId":"{t1}","content":"on it"}`, status: 200,
			want: []string{`"senderInfo":{"name":"Administrator"`}},
		{name: "another user cannot respond", as: "bob", method: "POST", path: "/api2/support/tickets/respond",
			prepare: aliceTicket, body: `{"ticketId":"{t1}","content":"me too"}`, status: 404, unchanged: true},
		{name: "closed ticket", as: "alice", method: "POST", path: "/api2/support/tickets/respond",
			prepare: closed, body: `{"ticketId":"{t1}","content":"hello?"}`, status: 400,
			want: []string{"the ticket is closed"}, unchanged: true},
		{name: "ticketId required", as: "alice", method: "POST", path: "/api2/support/tickets/respond",
			body: `{"content":"x"}`, status: 400, want: []string{"ticketId is required"}},
		{name: "content or files required", as: "alice", method: "POST", path: "/api2/support/tickets/respond",
			prepare: aliceTicket, body: `{"ticketId":"{t1}"}`, status: 400, unchanged: true},

		{name: "author edits", as: "admin", method: "PUT", path: "/api2/support/tickets/responses/{r1}",
			prepare: aliceTicket, body: `{"message":"Please restart it twice","ticket_id":"999","senderInfo":{"name":"x"}}`,
			status: 200, want: []string{`"ticket_id":"{t1}"`, `"message":"Please restart it twice"`, `"senderInfo":{"name":"Administrator"`}},
		{name: "ticket owner may not edit the admin's response", as: "alice", method: "PUT",
			path: "/api2/support/tickets/responses/{r1}", prepare: aliceTicket, body: `{"message":"changed"}`,
			status: 403, unchanged: true},
		{name: "another user: not found", as: "bob", method: "PUT", path: "/api2/support/tickets/responses/{r1}",
			prepare: aliceTicket, body: `{"message":"changed"}`, status: 404, unchanged: true},
		{name: "author deletes", as: "admin", method: "DELETE", path: "/api2/support/tickets/responses/{r1}",
			prepare: aliceTicket, status: 200, want: []string{`"message":"Response deleted successfully!"`},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				list, err := e.core.Office.TicketResponses(e.user("alice"), e.ids["t1"])
				e.must(err)
				if len(list) != 0 {
					t.Errorf("responses left: %d", len(list))
				}
			}},
		{name: "another user cannot delete", as: "bob", method: "DELETE", path: "/api2/support/tickets/responses/{r1}",
			prepare: aliceTicket, status: 404, unchanged: true},
		{name: "ticket owner cannot delete the admin's response", as: "alice", method: "DELETE",
			path: "/api2/support/tickets/responses/{r1}", prepare: aliceTicket, status: 403, unchanged: true},
	})
}
