package dashboard

import (
	"slices"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// The actions on one user besides its details; each answers a refusal with
// the user page and the problem next to the form it concerns.

// userDisable disables (disabled=1) or enables (disabled=0) a user; a
// disabled user's sessions stop working at once.
func (d *Dashboard) userDisable(c *fiber.Ctx) error {
	disable := c.FormValue("disabled") == "1"
	done := map[bool]string{true: "disabled", false: "enabled"}[disable]
	return d.userAction(c, "state", done, func(actor *model.User, id int64) error {
		_, err := d.core.Accounts.UpdateUser(actor, id, func(u *model.User) error { u.Disabled = disable; return nil })
		return err
	})
}

var errOwnPassword = model.Forbidden("Change your own password on your profile, with your current one")

// userPassword sets another user's password; the core ends the user's
// sessions.
func (d *Dashboard) userPassword(c *fiber.Ctx) error {
	password := c.FormValue("newPassword")
	return d.userAction(c, "password", "password", func(actor *model.User, id int64) error {
		if id == actor.ID { // the profile asks for the current password first
			return errOwnPassword
		}
		if err := accounts.CheckNewPassword(password); err != nil {
			return err
		}
		_, err := d.core.Accounts.UpdateUser(actor, id, func(u *model.User) error { u.Password = password; return nil })
		return err
	})
}

// userResetLink mails the user a link to choose a new password (when the
// server knows its public address, web.url).
func (d *Dashboard) userResetLink(c *fiber.Ctx) error {
	return d.userAction(c, "password", "link", func(actor *model.User, id int64) error {
		u, err := d.core.Accounts.User(actor, id)
		if err != nil {
			return err
		}
		return d.core.Accounts.SendResetLink(u.Email, c.IP())
	})
}

// userAccess gives the user the ticked devices and groups and takes away
// the unticked ones, among those the editor may give; what the user has
// that the editor cannot see stays as it is.
func (d *Dashboard) userAccess(c *fiber.Ctx) error {
	r := &formReader{c: c}
	wanted := map[string][]int64{model.KindDevice: r.ids("device"), model.KindGroup: r.ids("group")}
	return d.userAction(c, "access", "access", func(actor *model.User, id int64) error {
		if r.err != nil {
			return r.err
		}
		var add, remove []model.Permission
		for kind, want := range wanted {
			have, err := d.core.Fleet.Links(actor, model.KindUser, id, kind)
			if err != nil {
				return err
			}
			link := func(prop int64) model.Permission {
				return model.Permission{OwnerKind: model.KindUser, OwnerID: id, PropKind: kind, PropID: prop}
			}
			for _, prop := range want {
				if !slices.Contains(have, prop) {
					add = append(add, link(prop))
				}
			}
			for _, prop := range have {
				if !slices.Contains(want, prop) {
					remove = append(remove, link(prop))
				}
			}
		}
		if len(add) > 0 {
			if err := d.core.Fleet.Link(actor, add...); err != nil {
				return err
			}
		}
		if len(remove) > 0 {
			return d.core.Fleet.Unlink(actor, remove...)
		}
		return nil
	})
}

func (d *Dashboard) userDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.core.Accounts.DeleteUser(user(c), id); err != nil {
		return d.userFailed(c, id, "delete", err)
	}
	return redirect(c, Prefix+"/users")
}

// userAction runs act on the user of the path and goes back to its page
// with the notice done, or shows the page with act's refusal in section.
func (d *Dashboard) userAction(c *fiber.Ctx, section, done string, act func(actor *model.User, id int64) error) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := act(user(c), id); err != nil {
		return d.userFailed(c, id, section, err)
	}
	return redirect(c, userPath(id)+"?done="+done)
}

// userFailed shows the user page with err next to section's form, when it
// is a refusal the caller can act on; a user the caller may not see stays
// not found.
func (d *Dashboard) userFailed(c *fiber.Ctx, id int64, section string, err error) error {
	return d.formFailed(c, err, func(status int) error {
		u, uerr := d.core.Accounts.User(user(c), id)
		if uerr != nil {
			return uerr
		}
		f := d.newUserForm(c, u)
		f.Problem = problemAt{section, problemText(err)}
		return d.renderUser(c, status, f)
	})
}
