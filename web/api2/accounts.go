package api2

import (
	"bytes"
	"errors"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// accountRoutes are spec sections A (account access), H (account
// security) and K (notifications); see docs/accounts.md.
func (h *handlers) accountRoutes() []route {
	post, put, get, del := fiber.MethodPost, fiber.MethodPut, fiber.MethodGet, fiber.MethodDelete
	return []route{
		{post, "/auth/otp/verify", public, h.whileRunning(h.verifyOTP)},
		{post, "/auth/login", public, h.whileRunning(h.login)},
		{post, "/auth/account/reset", public, h.whileRunning(sendOTP(h.core.Accounts.StartReset))},
		{post, "/auth/password/reset", public, h.whileRunning(h.resetPassword)},
		{post, "/auth/registration/init", public, h.whileRunning(sendOTP(h.core.Accounts.StartRegistration))},
		{post, "/auth/registration/complete", public, h.whileRunning(h.completeRegistration)},
		{post, "/auth/demo-login/init", public, h.whileRunning(h.startDemo)},

		{post, "/security/update/init", session, h.updateContact},
		{post, "/security/update/verify", session, h.finishContactUpdate},
		{post, "/security/verify-password", session, h.verifyPassword},

		{get, "/notifications/settings", session, h.notificationSettings},
		{put, "/notifications/settings", session, h.setNotification},
		{put, "/notifications/tokens", session, h.addPushToken},
		{del, "/notifications/tokens", session, h.removePushToken},
	}
}

// The spec's success answers.
const (
	msgOTPSent       = "OTP sent successfully!"
	msgPasswordSet   = "Password Updated!"
	msgRegistered    = "Account registered successfully"
	msgUpdateOTPSent = "OTP sent!"
	msgTokenAdded    = "Token Extended"
	msgTokenRemoved  = "Token Removed"
)

// whileRunning answers "Server not running!" in maintenance mode.
func (h *handlers) whileRunning(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := h.core.Accounts.Running(); err != nil {
			return err
		}
		return next(c)
	}
}

// bind decodes a JSON body onto v; an absent body leaves v empty, so the
// endpoint answers its own "... required" message.
func bind(c *fiber.Ctx, v any) error {
	if len(bytes.TrimSpace(c.Body())) == 0 {
		return nil
	}
	return httpx.DecodeJSON(c, v)
}

func done(c *fiber.Ctx, message string) error {
	return c.JSON(fiber.Map{"message": message, "success": true})
}

// ---- A. account access ----

func (h *handlers) verifyOTP(c *fiber.Ctx) error {
	var in struct{ OTP, Identifier, Type string }
	if err := bind(c, &in); err != nil {
		return err
	}
	token, err := h.core.Accounts.VerifyOTP(in.OTP, in.Identifier, in.Type)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"token": token})
}

func (h *handlers) login(c *fiber.Ctx) error {
	var in struct{ Identifier, Password, Code string }
	if err := bind(c, &in); err != nil {
		return err
	}
	u, err := h.core.Accounts.LoginIdentifier(in.Identifier, in.Password, in.Code, c.IP())
	if err != nil {
		return err
	}
	token, expires, err := h.core.Accounts.CreateSession(u, c.IP())
	if err != nil {
		return err
	}
	httpx.SetSessionCookie(c, token, expires, h.opts.SecureCookies)
	return c.JSON(fiber.Map{"email": u.Email})
}

// sendOTP serves A3 and A5: body email or phone, an OTP sent by start.
func sendOTP(start func(email, phone, ip string) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var in struct{ Email, Phone string }
		if err := bind(c, &in); err != nil {
			return err
		}
		if err := start(in.Email, in.Phone, c.IP()); err != nil {
			return err
		}
		return done(c, msgOTPSent)
	}
}

func (h *handlers) resetPassword(c *fiber.Ctx) error {
	var in struct{ Token, NewPassword string }
	if err := bind(c, &in); err != nil {
		return err
	}
	if err := h.core.Accounts.ResetPassword(in.Token, in.NewPassword); err != nil {
		return err
	}
	return done(c, msgPasswordSet)
}

func (h *handlers) completeRegistration(c *fiber.Ctx) error {
	var in struct{ Token, FullName, Password string }
	if err := bind(c, &in); err != nil {
		return err
	}
	_, err := h.core.Accounts.CompleteRegistration(in.Token, in.FullName, in.Password)
	if errors.Is(err, accounts.ErrCreateFailed) {
		h.opts.Logger.Error("registration failed", "err", err)
		return c.Status(fiber.StatusInternalServerError).JSON(fiber.Map{"message": accounts.ErrCreateFailed.Error(), "success": false})
	}
	if err != nil {
		return err
	}
	return done(c, msgRegistered)
}

func (h *handlers) startDemo(c *fiber.Ctx) error {
	var in struct{ Phone, FullName string }
	if err := bind(c, &in); err != nil {
		return err
	}
	if err := h.core.Accounts.StartDemo(in.Phone, in.FullName, c.IP()); err != nil {
		return err
	}
	return done(c, msgOTPSent)
}

// ---- H. account security ----

// contactUpdate is H1's and H2's body; a non-empty otp makes it H2.
type contactUpdate struct{ Field, Value, OTP string }

func (h *handlers) updateContact(c *fiber.Ctx) error {
	var in contactUpdate
	if err := bind(c, &in); err != nil {
		return err
	}
	if in.OTP != "" {
		return h.applyContactUpdate(c, in)
	}
	if err := h.core.Accounts.StartContactUpdate(httpx.User(c), in.Field, in.Value, c.IP()); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgUpdateOTPSent})
}

// finishContactUpdate is H2 on its own path.
func (h *handlers) finishContactUpdate(c *fiber.Ctx) error {
	var in contactUpdate
	if err := bind(c, &in); err != nil {
		return err
	}
	return h.applyContactUpdate(c, in)
}

func (h *handlers) applyContactUpdate(c *fiber.Ctx, in contactUpdate) error {
	u, err := h.core.Accounts.FinishContactUpdate(httpx.User(c), in.Field, in.Value, in.OTP)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (h *handlers) verifyPassword(c *fiber.Ctx) error {
	var in struct{ Password string }
	if err := bind(c, &in); err != nil {
		return err
	}
	u, err := h.core.Accounts.VerifyPassword(httpx.User(c), in.Password, c.IP())
	if err != nil {
		return err
	}
	return c.JSON(u)
}

// ---- K. notifications ----

func (h *handlers) notificationSettings(c *fiber.Ctx) error {
	s, err := h.core.Notify.NotificationSettings(httpx.User(c))
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (h *handlers) setNotification(c *fiber.Ctx) error {
	var in struct {
		Type string `json:"type"`
		IsOn *bool  `json:"isOn"`
	}
	if err := bind(c, &in); err != nil {
		return err
	}
	if in.Type == "" || in.IsOn == nil {
		return model.Invalid("type and isOn are required")
	}
	if err := h.core.Notify.SetNotification(httpx.User(c), in.Type, *in.IsOn); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"type": in.Type, "isOn": *in.IsOn})
}

// pushToken is K3's and K4's body.
type pushToken struct{ Token string }

func (h *handlers) addPushToken(c *fiber.Ctx) error {
	var in pushToken
	if err := bind(c, &in); err != nil {
		return err
	}
	err := h.core.Notify.AddPushToken(httpx.User(c), in.Token)
	if errors.Is(err, notify.ErrTokenExists) {
		return c.Status(fiber.StatusFound).JSON(fiber.Map{"message": notify.ErrTokenExists.Message})
	}
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgTokenAdded})
}

func (h *handlers) removePushToken(c *fiber.Ctx) error {
	var in pushToken
	if err := bind(c, &in); err != nil {
		return err
	}
	if err := h.core.Notify.RemovePushToken(httpx.User(c), in.Token); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgTokenRemoved})
}
