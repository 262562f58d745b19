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
func badWindows(as, path string, prepare func(*officeEnv)) []officeScenario {
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
		out = append(out, officeScenario{name: path + " " + bad.query, as: as, prepare: prepare, method: "GET",
			path: path + "?" + bad.query, status: 400, want: []string{`"message":"Invalid request"`, bad.message}})
	}
	return out
}

func TestListDocumentsWindow(t *testing.T) {
	// Alice's five documents, newest first: doc5 ... doc1; doc2 and doc4
	// expire, doc4 first.
	five := func(e *officeEnv) {
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
		{name: "no parameters: all of them", as: "alice", prepare: five, method: "GET", path: "/api2/documents", status: 200,
			check: windowed("documents", "documentType", 5, "doc5", "doc4", "doc3", "doc2", "doc1")},
		{name: "limit", as: "alice", prepare: five, method: "GET", path: "/api2/documents?limit=2", status: 200,
			check: windowed("documents", "documentType", 5, "doc5", "doc4")},
		{name: "offset", as: "alice", prepare: five, method: "GET", path: "/api2/documents?limit=2&offset=2", status: 200,
			check: windowed("documents", "documentType", 5, "doc3", "doc2")},
		{name: "offset without limit", as: "alice", prepare: five, method: "GET", path: "/api2/documents?offset=4", status: 200,
			check: windowed("documents", "documentType", 5, "doc1")},
		{name: "page", as: "alice", prepare: five, method: "GET", path: "/api2/documents?limit=2&page=3", status: 200,
			check: windowed("documents", "documentType", 5, "doc1")},
		{name: "past the end", as: "alice", prepare: five, method: "GET", path: "/api2/documents?limit=2&page=4", status: 200,
			check: windowed("documents", "documentType", 5)},
		{name: "a limit over the cap is cut to it", as: "alice", prepare: five, method: "GET", path: "/api2/documents?limit=1000000",
			status: 200, check: windowed("documents", "documentType", 5, "doc5", "doc4", "doc3", "doc2", "doc1")},
		{name: "another user's are not counted", as: "bob", prepare: five, method: "GET", path: "/api2/documents?limit=1", status: 200,
			check: windowed("documents", "documentType", 1, "bob's")},

		{name: "expiry information, paged", as: "alice", prepare: five, method: "GET",
			path: "/api2/documents/expiry-info?limit=1&offset=1", status: 200,
			check: windowed("documents", "documentType", 2, "doc2")},
		{name: "expiry information, all", as: "alice", prepare: five, method: "GET", path: "/api2/documents/expiry-info",
			status: 200, check: windowed("documents", "documentType", 2, "doc4", "doc2")},
	}
	scenarios = append(scenarios, badWindows("alice", "/api2/documents", five)...)
	runOfficeScenarios(t, append(scenarios, badWindows("alice", "/api2/documents/expiry-info", five)...))
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
	e.call("alice", "GET", "/api2/documents", "").Decode(t, &body)
	if body.Total != 1001 || len(body.Documents) != 1000 || body.Documents[0].DocumentType != "doc1000" {
		t.Fatalf("total %d, %d documents, first %+v", body.Total, len(body.Documents), body.Documents[:1])
	}
	e.call("alice", "GET", "/api2/documents?page=2", "").Decode(t, &body)
	if body.Total != 1001 || len(body.Documents) != 1 || body.Documents[0].DocumentType != "doc0" {
		t.Fatalf("page 2: total %d, %d documents", body.Total, len(body.Documents))
	}
}

func TestListResponsesWindow(t *testing.T) {
	conversation := func(e *officeEnv) {
		e.ticket("t1", "alice", "Help")
		e.respond("r1", "alice", "t1", "first")
		e.respond("r2", "admin", "t1", "second")
		e.respond("r3", "alice", "t1", "third")
	}
	scenarios := []officeScenario{
		{name: "all, oldest first", as: "alice", prepare: conversation, method: "GET", path: "/api2/support/tickets/{t1}/responses",
			status: 200, check: windowed("data", "message", 3, "first", "second", "third")},
		{name: "limit", as: "alice", prepare: conversation, method: "GET", path: "/api2/support/tickets/{t1}/responses?limit=2",
			status: 200, check: windowed("data", "message", 3, "first", "second")},
		{name: "page", as: "admin", prepare: conversation, method: "GET", path: "/api2/support/tickets/{t1}/responses?limit=2&page=2",
			status: 200, check: windowed("data", "message", 3, "third")},
		{name: "another user's ticket", as: "bob", prepare: conversation, method: "GET",
			path: "/api2/support/tickets/{t1}/responses?limit=2", status: 404},
	}
	runOfficeScenarios(t, append(scenarios, badWindows("alice", "/api2/support/tickets/{t1}/responses", conversation)...))
}

func TestListPaymentsWindow(t *testing.T) {
	payments := func(e *officeEnv) {
		e.pay("p1", "alice", "m1", 1, 0, "completed")
		e.pay("p2", "bob", "m2", 2, 0, "completed")
		e.pay("p3", "alice", "m3", 3, 0, "pending")
	}
	scenarios := []officeScenario{
		{name: "own, all of them", as: "alice", prepare: payments, method: "GET", path: "/api2/payments", status: 200,
			check: windowed("", "method", 2, "m1", "m3")},
		{name: "own, paged", as: "alice", prepare: payments, method: "GET", path: "/api2/payments?limit=1&offset=1", status: 200,
			check: windowed("", "method", 2, "m3")},
		{name: "everyone's, paged", as: "admin", prepare: payments, method: "GET", path: "/api2/payments?all=true&limit=2", status: 200,
			check: windowed("", "method", 3, "m1", "m2")},
		{name: "everyone's, a page", as: "admin", prepare: payments, method: "GET", path: "/api2/payments?all=true&limit=2&page=2",
			status: 200, check: windowed("", "method", 3, "m3")},
		{name: "one user's, paged", as: "admin", prepare: payments, method: "GET", path: "/api2/payments?userId={bob}&limit=5",
			status: 200, check: windowed("", "method", 1, "m2")},
		{name: "everyone's stays an administrator's", as: "alice", prepare: payments, method: "GET",
			path: "/api2/payments?all=true&limit=1", status: 403},
	}
	runOfficeScenarios(t, append(scenarios, badWindows("admin", "/api2/payments", payments)...))
}
