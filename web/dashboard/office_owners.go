package dashboard

import (
	"slices"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/gofiber/fiber/v2"
)

// The office pages (tickets, documents, maintenance, the overview) use the
// core's administrative path, office.Admin: administrators see every
// user's records, managers their own and their managed users'. Each list
// says whose a record is and filters by owner.

// officeAdmin is the administrative path for the request's user.
func (d *Dashboard) officeAdmin(c *fiber.Ctx) office.Admin { return d.core.Office.Admin(user(c)) }

// ownerNames names the people whose records the viewer reaches: the
// viewer, and every user (administrators) or the users it manages.
type ownerNames map[int64]string

func (d *Dashboard) ownerNames(actor *model.User) (ownerNames, error) {
	users, err := d.core.Accounts.Users(actor, 0)
	if err != nil {
		return nil, err
	}
	n := ownerNames{actor.ID: personName(actor)}
	for _, u := range users {
		n[u.ID] = personName(u)
	}
	return n, nil
}

// of names a record's owner.
func (n ownerNames) of(owner int64) string {
	if name, ok := n[owner]; ok {
		return name
	}
	return "#" + itoa(owner)
}

// options are the owner filter's choices, by name.
func (n ownerNames) options() []option {
	out := []option{{"", "Everyone"}}
	for id, name := range n {
		out = append(out, option{itoa(id), name})
	}
	slices.SortFunc(out[1:], func(a, b option) int { return compareFold(a.Label, b.Label) })
	return out
}

// personName is a user as lists name them: the name, else the e-mail.
func personName(u *model.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.Email
}

// ownerFilter is the lists' owner filter: its query value and id (0: everyone).
type ownerFilter struct {
	Owner string
	ID    int64
	Names ownerNames
}

// readOwnerFilter reads ?owner= and names the owners the viewer reaches.
func (d *Dashboard) readOwnerFilter(c *fiber.Ctx) (ownerFilter, error) {
	r := &formReader{c: c}
	f := ownerFilter{Owner: c.Query("owner"), ID: r.queryID("owner")}
	if r.err != nil {
		return f, r.err
	}
	var err error
	f.Names, err = d.ownerNames(user(c))
	return f, err
}

// othersName names a record's owner when that is not the viewer ("" when
// it is, or the record is new).
func (d *Dashboard) othersName(actor *model.User, s *model.Stamp) (string, error) {
	if s.Owner() == 0 || s.Owner() == actor.ID {
		return "", nil
	}
	u, err := d.core.Accounts.User(actor, s.Owner())
	if err != nil {
		return "", err
	}
	return personName(u), nil
}
