package api

import (
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// listUsers is C1: all users for an administrator, the managed users of a
// manager, or with userId the users that user manages; paged and searched
// like every list.
func (h *handlers) listUsers(c *fiber.Ctx) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	if q.UserID, err = httpx.QueryID(c, "userId"); err != nil {
		return err
	}
	users, total, err := h.core.Accounts.UserPage(httpx.User(c), q)
	return sendList(c, scrub(users...), total, err)
}

// createUser is C2. Anonymous callers register themselves (when the server
// allows registration); an identified caller creates the user as itself.
func (h *handlers) createUser(c *fiber.Ctx) error {
	u, err := h.core.Accounts.CreateUser(httpx.User(c), applyBody[model.User](c))
	return sendUser(c, u, err)
}

func (h *handlers) getUser(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	u, err := h.core.Accounts.User(httpx.User(c), id)
	return sendUser(c, u, err)
}

// updateUser is C3.
func (h *handlers) updateUser(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	u, err := h.core.Accounts.UpdateUser(httpx.User(c), id, applyBody[model.User](c))
	return sendUser(c, u, err)
}

// deleteUser is C4; it answers 204 like Traccar.
func (h *handlers) deleteUser(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	return noContent(c, h.core.Accounts.DeleteUser(httpx.User(c), id))
}

func sendUser(c *fiber.Ctx, u *model.User, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(scrub(u)[0])
}

// scrub clears the input-only password so no response can carry it, even
// if a core path forgot to; the hash is never serialised (json:"-").
func scrub(users ...*model.User) []*model.User {
	for _, u := range users {
		if u != nil {
			u.Password = ""
		}
	}
	if users == nil {
		return []*model.User{}
	}
	return users
}

// newTOTPKey answers a new secret for an authenticator app (text, as
// Traccar); the user turns two-factor login on by saving it as totpKey.
func (h *handlers) newTOTPKey(c *fiber.Ctx) error {
	key, err := accounts.NewTOTPKey()
	if err != nil {
		return err
	}
	return c.SendString(key)
}

// resetPassword mails a reset link to the form's email (200 whether or not
// it names a user, as Traccar).
func (h *handlers) resetPassword(c *fiber.Ctx) error {
	if err := h.core.Accounts.SendResetLink(c.FormValue("email"), c.IP()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusOK)
}

// updatePassword sets a new password with the link's token (form token,
// password); the user's sessions end.
func (h *handlers) updatePassword(c *fiber.Ctx) error {
	if err := h.core.Accounts.ResetPassword(c.FormValue("token"), c.FormValue("password")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusOK)
}
