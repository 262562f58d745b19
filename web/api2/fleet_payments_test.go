package api2_test

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// pay records a payment for user as the administrator and names it.
func (e *officeEnv) pay(name, user, method string, amount, discount float64, status string) {
	e.t.Helper()
	p, err := e.core.Office.CreatePayment(e.user("admin"), func(p *office.Payment) error {
		p.UserID, p.Method, p.Amount, p.Discount, p.Status, p.Currency = model.TextID(e.ids[user]), method, amount, discount, status, "EUR"
		return nil
	})
	e.must(err)
	e.ids[name] = int64(p.ID)
}

func TestFleetPaymentOverview(t *testing.T) {
	e := newOfficeEnv(t)
	e.pay("p1", "alice", "card", 10.10, 1, "completed")
	e.pay("p2", "alice", "card", 20.20, 2, "pending")
	e.pay("p3", "alice", "Card", 5, 0.5, "completed") // the same method, other case
	e.pay("p4", "alice", "bank", 100, 10, "failed")
	e.pay("p5", "alice", "bank", 0.1, 0, "completed")
	e.pay("p6", "alice", "bank", 0.2, 0, "completed")
	e.pay("p7", "bob", "card", 999, 99, "completed")

	totals := func(count int, total, completed, pending, saved float64, nPending, nFailed, nCompleted int) map[string]any {
		return map[string]any{"transactionsCount": count, "totalAmount": total, "completedAmount": completed,
			"pendingAmount": pending, "savedAmount": saved, "pendingCount": nPending, "failedCount": nFailed, "completedCount": nCompleted}
	}
	with := func(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }
	want := with(totals(6, 135.6, 15.4, 20.2, 1.5, 1, 1, 4), "methods", []map[string]any{
		with(totals(3, 100.3, 0.3, 0, 0, 0, 1, 2), "method", "bank"),
		with(totals(3, 35.3, 15.1, 20.2, 1.5, 1, 0, 2), "method", "card"),
	})
	r := e.call("alice", "GET", "/api2/analytics/payment/overview", "")
	var got map[string]any
	r.Decode(t, &got)
	if r.Status != 200 || !sameJSON(t, got, want) {
		t.Fatalf("alice: %d\ngot  %s\nwant %s", r.Status, mustJSON(t, got), mustJSON(t, want))
	}
	r = e.call("admin", "GET", "/api2/analytics/payment/overview", "")
	r.Decode(t, &got)
	if !sameJSON(t, got, with(totals(0, 0, 0, 0, 0, 0, 0, 0), "methods", []any{})) {
		t.Fatalf("admin (no payments of its own): %s", r.Body)
	}
	if r := e.call("", "GET", "/api2/analytics/payment/overview", ""); r.Status != 401 {
		t.Fatalf("no session: %d", r.Status)
	}
}

func TestFleetPayments(t *testing.T) {
	const body = `{"userId":"{alice}","method":"card","amount":12.5,"currency":"eur","status":"completed","discount":2.5,"reference":"INV-1"}`
	withPayments := func(e *officeEnv) {
		e.pay("pa", "alice", "card", 10, 0, "pending")
		e.pay("pb", "bob", "bank", 20, 0, "completed")
	}
	runOfficeScenarios(t, []officeScenario{
		{name: "an administrator records a payment", as: "admin", method: "POST", path: "/api2/payments", body: body, status: 201,
			want: []string{`"userId":"{alice}"`, `"currency":"EUR"`, `"status":"completed"`, `"discount":2.5`, `"reference":"INV-1"`, `"$createdAt":"2025-06-01T09:00:00Z"`}},
		{name: "status defaults to pending", as: "admin", method: "POST", path: "/api2/payments",
			body: `{"userId":"{bob}","method":"cash","amount":1,"currency":"USD"}`, status: 201, want: []string{`"status":"pending"`}},
		{name: "users cannot record payments", as: "alice", method: "POST", path: "/api2/payments", body: body, status: 403},
		{name: "an unknown user", as: "admin", method: "POST", path: "/api2/payments",
			body: `{"userId":"999999","method":"card","amount":1,"currency":"EUR"}`, status: 400, want: []string{"user 999999 not found"}},
		{name: "userId is required", as: "admin", method: "POST", path: "/api2/payments",
			body: `{"method":"card","amount":1,"currency":"EUR"}`, status: 400, want: []string{"userId is required"}},
		{name: "a bad status", as: "admin", method: "POST", path: "/api2/payments",
			body: strings.Replace(body, "completed", "refunded", 1), status: 400, want: []string{"status must be"}},
		{name: "a negative amount", as: "admin", method: "POST", path: "/api2/payments",
			body: strings.Replace(body, "12.5", "-1", 1), status: 400, want: []string{"at least 0"}},
		{name: "a bad currency", as: "admin", method: "POST", path: "/api2/payments",
			body: strings.Replace(body, "eur", "euro", 1), status: 400, want: []string{"ISO 4217"}},
		{name: "a user lists its own", as: "alice", method: "GET", path: "/api2/payments", prepare: withPayments, status: 200,
			want: []string{`"id":"{pa}"`}, absent: []string{`"id":"{pb}"`}},
		{name: "only administrators list everyone's", as: "alice", method: "GET", path: "/api2/payments?all=true", prepare: withPayments, status: 403},
		{name: "an administrator lists one user's", as: "admin", method: "GET", path: "/api2/payments?userId={bob}", prepare: withPayments,
			status: 200, want: []string{`"id":"{pb}"`}, absent: []string{`"id":"{pa}"`}},
		{name: "an administrator lists all", as: "admin", method: "GET", path: "/api2/payments?all=true", prepare: withPayments,
			status: 200, want: []string{`"id":"{pa}"`, `"id":"{pb}"`}},
		{name: "a user reads its own", as: "alice", method: "GET", path: "/api2/payments/{pa}", prepare: withPayments, status: 200},
		{name: "another user's is not found", as: "alice", method: "GET", path: "/api2/payments/{pb}", prepare: withPayments, status: 404},
		{name: "an administrator changes one; its user stays", as: "admin", method: "PUT", path: "/api2/payments/{pa}", prepare: withPayments,
			body: `{"status":"completed","userId":"{bob}"}`, status: 200,
			want: []string{`"status":"completed"`, `"userId":"{alice}"`, `"amount":10`}},
		{name: "users cannot change payments", as: "alice", method: "PUT", path: "/api2/payments/{pa}", prepare: withPayments,
			body: `{"status":"completed"}`, status: 403},
		{name: "an administrator deletes one", as: "admin", method: "DELETE", path: "/api2/payments/{pa}", prepare: withPayments, status: 200,
			want: []string{"Payment deleted"},
			check: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if r := e.call("alice", "GET", "/api2/payments/{pa}", ""); r.Status != 404 {
					t.Errorf("after delete: %d", r.Status)
				}
				if r := e.call("alice", "GET", "/api2/payments", ""); r.Body != "[]" {
					t.Errorf("alice's list after delete: %s", r.Body)
				}
			}},
		{name: "users cannot delete payments", as: "alice", method: "DELETE", path: "/api2/payments/{pa}", prepare: withPayments, status: 403},
		{name: "a missing one", as: "admin", method: "DELETE", path: "/api2/payments/999", status: 404},
	})
}
