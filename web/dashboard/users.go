package dashboard

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) userRoutes() []route {
	return []route{{"GET", "/users", d.users}}
}

func (d *Dashboard) users(c *fiber.Ctx) error {
	list, err := d.core.Accounts.Users(user(c), 0)
	if err != nil {
		return err
	}
	return render(c, fiber.StatusOK, usersPage(d.page(c, "Users", "users"), list))
}

// role names what a user may do, as the list shows it.
func role(u *model.User) string {
	switch {
	case u.Administrator:
		return "administrator"
	case u.Manager():
		return "manager"
	case u.Readonly:
		return "read-only"
	}
	return "user"
}
