package api2_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fleetd/fleetd/web/internal/webtest"
)

// windowed checks a paged list answer: the field of each item under key
// (the body itself when key is ""), in order, and the total, from the
// body's total or, for a bare array, from X-Total-Count.
func windowed(key, field string, total int, want ...string) func(*testing.T, *officeEnv, *webtest.Response) {
	return func(t *testing.T, _ *officeEnv, r *webtest.Response) {
		t.Helper()
		raw := json.RawMessage(r.Body)
		gotTotal := r.Header.Get("X-Total-Count")
		if key != "" {
			var body map[string]json.RawMessage
			r.Decode(t, &body)
			raw, gotTotal = body[key], string(body["total"])
		}
		var items []map[string]any
		if err := json.Unmarshal(raw, &items); err != nil {
			t.Fatalf("%s: %v in %s", key, err, r.Body)
		}
		got := []string{}
		for _, item := range items {
			got = append(got, fmt.Sprint(item[field]))
		}
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
		if gotTotal != strconv.Itoa(total) {
			t.Errorf("total %s, want %d", gotTotal, total)
		}
	}
}

// badWindows are the scenarios every list paged by readWindow refuses.
func badWindows(as, path string, prepare func(*testing.T, *officeEnv)) []officeScenario {
	var out []officeScenario
	for _, bad := range []struct{ query, message string }{
		{"limit=0", "limit must be a whole number from 1"},
		{"limit=-3", "limit must be a whole number from 1"},
		{"limit=ten", "limit must be a whole number from 1"},
		{"offset=-1", "offset must be a whole number from 0"},
		{"offset=1.5", "offset must be a whole number from 0"},
		{"page=0", "page must be a whole number from 1"},
		{"page=2&offset=0", "give offset or page, not both"},
	} {
		out = append(out, officeScenario{Name: path + " " + bad.query, As: as, Before: prepare, Method: "GET",
			Path: path + "?" + bad.query, Status: 400, Want: []string{`"message":"Invalid request"`, bad.message}})
	}
	return out
}

func TestListDocumentsWindow(t *testing.T) {
	// Alice's five documents, newest first: doc5 ... doc1; doc2 and doc4
	// expire, doc4 first.
	five := func(_ *testing.T, e *officeEnv) {
		for i := 1; i <= 5; i++ {
			var expiry time.Time // none
			if in, ok := map[int]int{2: 30, 4: 20}[i]; ok {
				expiry = days(in)
			}
			e.document(fmt.Sprintf("doc%d", i), "alice", fmt.Sprintf("doc%d", i), expiry)
		}
		e.document("other", "bob", "bob's", time.Time{})
	}
	scenarios := []officeScenario{
		{Name: "no parameters: all of them", As: "alice", Before: five, Method: "GET", Path: "/api2/documents", Status: 200,
			After: windowed("documents", "documentType", 5, "doc5", "doc4", "doc3", "doc2", "doc1")},
		{Name: "limit", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?limit=2", Status: 200,
			After: windowed("documents", "documentType", 5, "doc5", "doc4")},
		{Name: "offset", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?limit=2&offset=2", Status: 200,
			After: windowed("documents", "documentType", 5, "doc3", "doc2")},
		{Name: "offset without limit", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?offset=4", Status: 200,
			After: windowed("documents", "documentType", 5, "doc1")},
		{Name: "page", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?limit=2&page=3", Status: 200,
			After: windowed("documents", "documentType", 5, "doc1")},
		{Name: "past the end", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?limit=2&page=4", Status: 200,
			After: windowed("documents", "documentType", 5)},
		{Name: "a limit over the cap is cut to it", As: "alice", Before: five, Method: "GET", Path: "/api2/documents?limit=1000000",
			Status: 200, After: windowed("documents", "documentType", 5, "doc5", "doc4", "doc3", "doc2", "doc1")},
		{Name: "another user's are not counted", As: "bob", Before: five, Method: "GET", Path: "/api2/documents?limit=1", Status: 200,
			After: windowed("documents", "documentType", 1, "bob's")},

		{Name: "expiry information, paged", As: "alice", Before: five, Method: "GET",
			Path: "/api2/documents/expiry-info?limit=1&offset=1", Status: 200,
			After: windowed("documents", "documentType", 2, "doc2")},
		{Name: "expiry information, all", As: "alice", Before: five, Method: "GET", Path: "/api2/documents/expiry-info",
			Status: 200, After: windowed("documents", "documentType", 2, "doc4", "doc2")},
	}
	scenarios = append(scenarios, badWindows("alice", "/api2/documents", five)...)
	runOffice(t, append(scenarios, badWindows("alice", "/api2/documents/expiry-info", five)...))
}

// TestListDocumentsCap: a list that had no bound answers at most 1,000
// items without a limit, and says how many there are.
func TestListDocumentsCap(t *testing.T) {
	e := newOfficeEnv(t)
	for i := range 1001 {
		e.document(fmt.Sprintf("doc%d", i), "alice", fmt.Sprintf("doc%d", i), time.Time{})
	}
	var body struct {
		Total     int
		Documents []struct{ DocumentType string }
	}
	e.Call(t, "alice", "GET", "/api2/documents", "").Decode(t, &body)
	if body.Total != 1001 || len(body.Documents) != 1000 || body.Documents[0].DocumentType != "doc1000" {
		t.Fatalf("total %d, %d documents, first %+v", body.Total, len(body.Documents), body.Documents[:1])
	}
	e.Call(t, "alice", "GET", "/api2/documents?page=2", "").Decode(t, &body)
	if body.Total != 1001 || len(body.Documents) != 1 || body.Documents[0].DocumentType != "doc0" {
		t.Fatalf("page 2: total %d, %d documents", body.Total, len(body.Documents))
	}
}

func TestListResponsesWindow(t *testing.T) {
	conversation := func(_ *testing.T, e *officeEnv) {
		e.ticket("t1", "alice", "Help")
		e.respond("r1", "alice", "t1", "first")
		e.respond("r2", "admin", "t1", "second")
		e.respond("r3", "alice", "t1", "third")
	}
	scenarios := []officeScenario{
		{Name: "all, oldest first", As: "alice", Before: conversation, Method: "GET", Path: "/api2/support/tickets/{t1}/responses",
			Status: 200, After: windowed("data", "message", 3, "first", "second", "third")},
		{Name: "limit", As: "alice", Before: conversation, Method: "GET", Path: "/api2/support/tickets/{t1}/responses?limit=2",
			Status: 200, After: windowed("data", "message", 3, "first", "second")},
		{Name: "page", As: "admin", Before: conversation, Method: "GET", Path: "/api2/support/tickets/{t1}/responses?limit=2&page=2",
			Status: 200, After: windowed("data", "message", 3, "third")},
		{Name: "another user's ticket", As: "bob", Before: conversation, Method: "GET",
			Path: "/api2/support/tickets/{t1}/responses?limit=2", Status: 404},
	}
	runOffice(t, append(scenarios, badWindows("alice", "/api2/support/tickets/{t1}/responses", conversation)...))
}

func TestListPaymentsWindow(t *testing.T) {
	payments := func(_ *testing.T, e *officeEnv) {
		e.pay("p1", "alice", "m1", 1, 0, "completed")
		e.pay("p2", "bob", "m2", 2, 0, "completed")
		e.pay("p3", "alice", "m3", 3, 0, "pending")
	}
	scenarios := []officeScenario{
		{Name: "own, all of them", As: "alice", Before: payments, Method: "GET", Path: "/api2/payments", Status: 200,
			After: windowed("", "method", 2, "m1", "m3")},
		{Name: "own, paged", As: "alice", Before: payments, Method: "GET", Path: "/api2/payments?limit=1&offset=1", Status: 200,
			After: windowed("", "method", 2, "m3")},
		{Name: "everyone's, paged", As: "admin", Before: payments, Method: "GET", Path: "/api2/payments?all=true&limit=2", Status: 200,
			After: windowed("", "method", 3, "m1", "m2")},
		{Name: "everyone's, a page", As: "admin", Before: payments, Method: "GET", Path: "/api2/payments?all=true&limit=2&page=2",
			Status: 200, After: windowed("", "method", 3, "m3")},
		{Name: "one user's, paged", As: "admin", Before: payments, Method: "GET", Path: "/api2/payments?userId={bob}&limit=5",
			Status: 200, After: windowed("", "method", 1, "m2")},
		{Name: "everyone's stays an administrator's", As: "alice", Before: payments, Method: "GET",
			Path: "/api2/payments?all=true&limit=1", Status: 403},
	}
	runOffice(t, append(scenarios, badWindows("admin", "/api2/payments", payments)...))
}
