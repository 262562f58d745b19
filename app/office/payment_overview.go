package office

import (
	"math"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// PaymentTotals sums payments. totalAmount is every payment's amount,
// whatever its status; savedAmount sums the discounts of completed
// payments (a pending or failed payment has saved nothing yet). Amounts of
// different currencies are added as they are: one deployment bills in one.
type PaymentTotals struct {
	TransactionsCount int     `json:"transactionsCount"`
	TotalAmount       float64 `json:"totalAmount"`
	CompletedAmount   float64 `json:"completedAmount"`
	PendingAmount     float64 `json:"pendingAmount"`
	SavedAmount       float64 `json:"savedAmount"`
	PendingCount      int     `json:"pendingCount"`
	FailedCount       int     `json:"failedCount"`
	CompletedCount    int     `json:"completedCount"`
}

func (t *PaymentTotals) add(p *model.Payment) {
	t.TransactionsCount++
	t.TotalAmount += p.Amount
	switch p.Status {
	case PaymentCompleted:
		t.CompletedCount++
		t.CompletedAmount += p.Amount
		t.SavedAmount += p.Discount
	case PaymentPending:
		t.PendingCount++
		t.PendingAmount += p.Amount
	case PaymentFailed:
		t.FailedCount++
	}
}

// round keeps sums to cents, so 0.1 + 0.2 reads 0.3.
func (t *PaymentTotals) round() {
	for _, v := range []*float64{&t.TotalAmount, &t.CompletedAmount, &t.PendingAmount, &t.SavedAmount} {
		*v = math.Round(*v*100) / 100
	}
}

// MethodTotals are one payment method's totals.
type MethodTotals struct {
	Method string `json:"method"`
	PaymentTotals
}

// PaymentOverview answers I2.
type PaymentOverview struct {
	PaymentTotals
	Methods []MethodTotals `json:"methods"`
}

// PaymentOverview sums the actor's own payments, overall and per method
// (methods by name; a method's name is compared case-insensitively and
// shown as first recorded).
func (svc *Service) PaymentOverview(actor *model.User) (*PaymentOverview, error) {
	list, _, err := svc.Payments(actor, model.Query{})
	if err != nil {
		return nil, err
	}
	out := &PaymentOverview{Methods: []MethodTotals{}}
	index := map[string]int{}
	for _, p := range list {
		out.add(p)
		key := strings.ToLower(p.Method)
		i, ok := index[key]
		if !ok {
			i = len(out.Methods)
			index[key] = i
			out.Methods = append(out.Methods, MethodTotals{Method: p.Method})
		}
		out.Methods[i].add(p)
	}
	out.round()
	for i := range out.Methods {
		out.Methods[i].round()
	}
	slices.SortFunc(out.Methods, func(a, b MethodTotals) int {
		return strings.Compare(strings.ToLower(a.Method), strings.ToLower(b.Method))
	})
	return out, nil
}
