package office

import (
	"math"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

// Payment statuses.
const (
	PaymentCompleted = "completed"
	PaymentPending   = "pending"
	PaymentFailed    = "failed"
)

var payments = cabinet[model.Payment, *model.Payment]{what: "Payment", table: model.OfficeTx.Payments}

// checkPayment normalises p and refuses what cannot be a payment. A missing
// status is pending.
func checkPayment(p *model.Payment) error {
	p.Method, p.Reference, p.Description = strings.TrimSpace(p.Method), strings.TrimSpace(p.Reference), strings.TrimSpace(p.Description)
	p.Currency = strings.ToUpper(strings.TrimSpace(p.Currency))
	p.Status = strings.TrimSpace(p.Status)
	if p.Status == "" {
		p.Status = PaymentPending
	}
	switch {
	case p.Method == "":
		return model.Invalid("method is required")
	case !prefs.ValidCurrency(p.Currency):
		return model.Invalid("currency must be a three-letter ISO 4217 code such as USD")
	case !slices.Contains([]string{PaymentCompleted, PaymentPending, PaymentFailed}, p.Status):
		return model.Invalid("status must be completed, pending or failed")
	case !validMoney(p.Amount) || !validMoney(p.Discount):
		return model.Invalid("amount and discount must be numbers of at least 0")
	}
	return nil
}

func validMoney(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

func requireAdmin(actor *model.User) error {
	if !actor.Administrator {
		return model.Forbidden("Only administrators may record payments")
	}
	return nil
}

// CreatePayment records a payment (administrators only); apply fills it,
// userId included, which must name an existing user.
func (svc *Service) CreatePayment(actor *model.User, apply func(*model.Payment) error) (*model.Payment, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	p := &model.Payment{}
	if err := limits.FromRequest(apply, p); err != nil {
		return nil, err
	}
	if err := checkPayment(p); err != nil {
		return nil, err
	}
	if p.UserID == 0 {
		return nil, model.Invalid("userId is required")
	}
	return p, svc.store.As(actor).Update(func(tx model.Tx) error {
		_, err := tx.Users().Get(p.Owner())
		if model.ClassOf(err) == model.ClassNotFound {
			return model.Invalid("user %d not found", p.Owner())
		}
		if err != nil {
			return err
		}
		return payments.create(tx, p.Owner(), svc.now(), p)
	})
}

// UpdatePayment changes a payment (administrators only); its user stays.
func (svc *Service) UpdatePayment(actor *model.User, id int64, apply func(*model.Payment) error) (*model.Payment, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	var after *model.Payment
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		before, err := payments.of(tx).Get(id)
		if err != nil {
			return err
		}
		after = new(model.Payment)
		*after = *before
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		if err := checkPayment(after); err != nil {
			return err
		}
		return payments.update(tx, before, after, svc.now())
	})
	return after, err
}

// DeletePayment removes a payment (administrators only).
func (svc *Service) DeletePayment(actor *model.User, id int64) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	return svc.store.As(actor).Update(func(tx model.Tx) error {
		p, err := payments.of(tx).Get(id)
		if err != nil {
			return err
		}
		return payments.remove(tx, p)
	})
}

// Payment returns one payment: the actor's own, or any for administrators.
func (svc *Service) Payment(actor *model.User, id int64) (*model.Payment, error) {
	p, err := payments.read(svc.store, id, support(actor).has)
	return p, err
}

// Payments lists payments in creation order, cut to q's window, and says
// how many there are: q.UserID's (0: the actor's own), or every user's for
// an administrator asking q.All.
func (svc *Service) Payments(actor *model.User, q model.Query) ([]*model.Payment, int, error) {
	userID := q.UserID
	if userID == 0 {
		userID = actor.ID
	}
	if (q.All || userID != actor.ID) && !actor.Administrator {
		return nil, 0, model.Forbidden("Only administrators may list other users' payments")
	}
	var out []*model.Payment
	var total int
	err := svc.store.View(func(tx model.Tx) (err error) {
		if !q.All {
			out, total, err = payments.groupedPage(tx, userID, q, false)
			return err
		}
		if err = q.Check(); err == nil {
			out, err = payments.all(tx)
			total = len(out)
			out = model.Window(out, q)
		}
		return err
	})
	return out, total, err
}
