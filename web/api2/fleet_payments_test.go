package api2_test

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// pay records a payment for user as the administrator and names it.
func (e *officeEnv) pay(name, user, method string, amount, discount float64, status string) {
	e.t.Helper()
	p, err := e.Core.Office.CreatePayment(e.user("admin"), func(p *model.Payment) error {
		p.UserID, p.Method, p.Amount, p.Discount, p.Status, p.Currency = model.TextID(e.IDs[user]), method, amount, discount, status, "EUR"
		return nil
	})
	e.must(err)
	e.IDs[name] = int64(p.ID)
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
	r := e.Call(t, "alice", "GET", "/api2/analytics/payment/overview", "")
	var got map[string]any
	r.Decode(t, &got)
	if r.Status != 200 || !sameJSON(t, got, want) {
		t.Fatalf("alice: %d\ngot  %s\nwant %s", r.Status, mustJSON(t, got), mustJSON(t, want))
	}
	r = e.Call(t, "admin", "GET", "/api2/analytics/payment/overview", "")
	r.Decode(t, &got)
	if !sameJSON(t, got, with(totals(0, 0, 0, 0, 0, 0, 0, 0), "methods", []any{})) {
		t.Fatalf("admin (no payments of its own): %s", r.Body)
	}
	if r := e.Call(t, "", "GET", "/api2/analytics/payment/overview", ""); r.Status != 401 {
		t.Fatalf("no session: %d", r.Status)
	}
}

func TestFleetPayments(t *testing.T) {
	const body = `{"userId":"{alice}","method":"card","amount":12.5,"currency":"eur","status":"completed","discount":2.5,"reference":"INV-1"}`
	withPayments := func(t *testing.T, e *officeEnv) {
		e.pay("pa", "alice", "card", 10, 0, "pending")
		e.pay("pb", "bob", "bank", 20, 0, "completed")
	}
	runOffice(t, []officeScenario{
		{Name: "an administrator records a payment", As: "admin", Method: "POST", Path: "/api2/payments", Body: body, Status: 201,
			Want: []string{`"userId":"{alice}"`, `"currency":"EUR"`, `"status":"completed"`, `"discount":2.5`, `"reference":"INV-1"`, `"$createdAt":"2025-06-01T09:00:00Z"`}},
		{Name: "status defaults to pending", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: `{"userId":"{bob}","method":"cash","amount":1,"currency":"USD"}`, Status: 201, Want: []string{`"status":"pending"`}},
		{Name: "users cannot record payments", As: "alice", Method: "POST", Path: "/api2/payments", Body: body, Status: 403},
		{Name: "an unknown user", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: `{"userId":"999999","method":"card","amount":1,"currency":"EUR"}`, Status: 400, Want: []string{"user 999999 not found"}},
		{Name: "userId is required", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: `{"method":"card","amount":1,"currency":"EUR"}`, Status: 400, Want: []string{"userId is required"}},
		{Name: "a bad status", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: strings.Replace(body, "completed", "refunded", 1), Status: 400, Want: []string{"status must be"}},
		{Name: "a negative amount", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: strings.Replace(body, "12.5", "-1", 1), Status: 400, Want: []string{"at least 0"}},
		{Name: "a bad currency", As: "admin", Method: "POST", Path: "/api2/payments",
			Body: strings.Replace(body, "eur", "euro", 1), Status: 400, Want: []string{"ISO 4217"}},
		{Name: "a user lists its own", As: "alice", Method: "GET", Path: "/api2/payments", Before: withPayments, Status: 200,
			Want: []string{`"id":"{pa}"`}, Absent: []string{`"id":"{pb}"`}},
		{Name: "only administrators list everyone's", As: "alice", Method: "GET", Path: "/api2/payments?all=true", Before: withPayments, Status: 403},
		{Name: "an administrator lists one user's", As: "admin", Method: "GET", Path: "/api2/payments?userId={bob}", Before: withPayments,
			Status: 200, Want: []string{`"id":"{pb}"`}, Absent: []string{`"id":"{pa}"`}},
		{Name: "an administrator lists all", As: "admin", Method: "GET", Path: "/api2/payments?all=true", Before: withPayments,
			Status: 200, Want: []string{`"id":"{pa}"`, `"id":"{pb}"`}},
		{Name: "a user reads its own", As: "alice", Method: "GET", Path: "/api2/payments/{pa}", Before: withPayments, Status: 200},
		{Name: "another user's is not found", As: "alice", Method: "GET", Path: "/api2/payments/{pb}", Before: withPayments, Status: 404},
		{Name: "an administrator changes one; its user stays", As: "admin", Method: "PUT", Path: "/api2/payments/{pa}", Before: withPayments,
			Body: `{"status":"completed","userId":"{bob}"}`, Status: 200,
			Want: []string{`"status":"completed"`, `"userId":"{alice}"`, `"amount":10`}},
		{Name: "users cannot change payments", As: "alice", Method: "PUT", Path: "/api2/payments/{pa}", Before: withPayments,
			Body: `{"status":"completed"}`, Status: 403},
		{Name: "an administrator deletes one", As: "admin", Method: "DELETE", Path: "/api2/payments/{pa}", Before: withPayments, Status: 200,
			Want: []string{"Payment deleted"},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if r := e.Call(t, "alice", "GET", "/api2/payments/{pa}", ""); r.Status != 404 {
					t.Errorf("after delete: %d", r.Status)
				}
				if r := e.Call(t, "alice", "GET", "/api2/payments", ""); r.Body != "[]" {
					t.Errorf("alice's list after delete: %s", r.Body)
				}
			}},
		{Name: "users cannot delete payments", As: "alice", Method: "DELETE", Path: "/api2/payments/{pa}", Before: withPayments, Status: 403},
		{Name: "a missing one", As: "admin", Method: "DELETE", Path: "/api2/payments/999", Status: 404},
	})
}
