package api2

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// applyPayment decodes the body onto a new payment or a stored one's copy.
func applyPayment(c *fiber.Ctx) func(*model.Payment) error {
	return func(p *model.Payment) error { return httpx.Decode(c, p) }
}

// listPayments pages like G1 (readWindow); the total is in X-Total-Count.
func (h *handlers) listPayments(c *fiber.Ctx) error {
	q, err := readWindow(c)
	if err != nil {
		return err
	}
	if q.UserID, err = httpx.QueryID(c, "userId"); err != nil {
		return err
	}
	if q.All, err = httpx.QueryBool(c, "all"); err != nil {
		return err
	}
	list, total, err := h.core.Office.Payments(httpx.User(c), q)
	if err != nil {
		return err
	}
	c.Set(totalHeader, strconv.Itoa(total))
	return c.JSON(list)
}

func (h *handlers) createPayment(c *fiber.Ctx) error {
	p, err := h.core.Office.CreatePayment(httpx.User(c), applyPayment(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(p)
}

func (h *handlers) getPayment(c *fiber.Ctx) error {
	id, err := pathID(c, "paymentId", "Payment")
	if err != nil {
		return err
	}
	p, err := h.core.Office.Payment(httpx.User(c), id)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (h *handlers) updatePayment(c *fiber.Ctx) error {
	id, err := pathID(c, "paymentId", "Payment")
	if err != nil {
		return err
	}
	p, err := h.core.Office.UpdatePayment(httpx.User(c), id, applyPayment(c))
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (h *handlers) deletePayment(c *fiber.Ctx) error {
	id, err := pathID(c, "paymentId", "Payment")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeletePayment(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(httpx.ErrorBody{Message: msgPaymentDeleted})
}

// I2
func (h *handlers) paymentOverview(c *fiber.Ctx) error {
	out, err := h.core.Office.PaymentOverview(httpx.User(c))
	if err != nil {
		return err
	}
	return c.JSON(out)
}
