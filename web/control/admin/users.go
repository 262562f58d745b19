package admin

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
)

// AddUser creates a user; an empty password is read from In. The first
// user of a store is an administrator.
func (a *Commands) AddUser(email, name, password string, administrator bool) error {
	return a.withCore(createStore, func(core *app.Core) error {
		pw, err := a.password(password)
		if err != nil {
			return err
		}
		u, err := core.Accounts.CreateUser(model.System(), func(u *model.User) error {
			u.Email, u.Name, u.Password, u.Administrator = email, name, pw, administrator
			return nil
		})
		if err == nil {
			fmt.Fprintf(a.Out, "created user %d %s (administrator: %v)\n", u.ID, u.Email, u.Administrator)
		}
		return err
	})
}

// SetPassword sets a user's password, read from In when empty, and ends
// the user's sessions.
func (a *Commands) SetPassword(email, password string) error {
	return a.withCore(writeStore, func(core *app.Core) error {
		pw, err := a.password(password)
		if err == nil {
			err = core.Accounts.SetPassword(email, pw)
		}
		if errors.Is(err, model.ErrNotFound) {
			return fmt.Errorf("no user with e-mail %q", email)
		}
		if err == nil {
			fmt.Fprintf(a.Out, "password of %s changed\n", email)
		}
		return err
	})
}

// ListUsers prints every user as a table.
func (a *Commands) ListUsers() error {
	return a.withCore(readStore, func(core *app.Core) error {
		users, err := core.Accounts.Users(model.System(), 0)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(a.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tADMIN\tDISABLED")
		for _, u := range users {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%v\t%v\n", u.ID, u.Email, u.Name, u.Administrator, u.Disabled)
		}
		return tw.Flush()
	})
}
