package dashboard

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) userRoutes() []route {
	return append([]route{
		{"GET", "/users", d.users},
		{"GET", "/users/new", d.userNew},
		{"POST", "/users", d.userCreate},
		{"GET", "/users/:id", d.userEdit},
		{"POST", "/users/:id", d.userUpdate},
		{"POST", "/users/:id/disabled", d.userDisable},
		{"POST", "/users/:id/password", d.userPassword},
		{"POST", "/users/:id/reset-link", d.userResetLink},
		{"POST", "/users/:id/access", d.userAccess},
		{"POST", "/users/:id/delete", d.userDelete},
	}, d.profileRoutes()...)
}

// User states, as the list shows and filters them.
const (
	stateActive   = "active"
	stateDisabled = "disabled"
	stateExpired  = "expired"
)

// userState is whether u may sign in, and why not.
func userState(u *model.User, now time.Time) string {
	switch {
	case u.Disabled:
		return stateDisabled
	case u.Expired(now):
		return stateExpired
	}
	return stateActive
}

// userRow is one user of the list: its state and how many devices it
// reaches ("all" for administrators).
type userRow struct {
	User    *model.User
	State   string
	Devices string
}

type usersView struct {
	Query, State string
	Rows         []userRow
}

func (d *Dashboard) users(c *fiber.Ctx) error {
	actor := user(c)
	v := usersView{Query: strings.TrimSpace(c.Query("q")), State: c.Query("state")}
	switch v.State {
	case "", stateActive, stateDisabled, stateExpired:
	default:
		return model.Invalid("state must be active, disabled or expired")
	}
	list, _, err := d.core.Accounts.UserPage(actor, model.Query{Keyword: v.Query})
	if err != nil {
		return err
	}
	now := time.Now()
	var counted []int64 // administrators reach all devices
	for _, u := range list {
		row := userRow{User: u, State: userState(u, now), Devices: "all"}
		if v.State != "" && row.State != v.State {
			continue
		}
		if !u.Administrator {
			counted = append(counted, u.ID)
		}
		v.Rows = append(v.Rows, row)
	}
	counts, err := d.core.Fleet.DeviceCounts(actor, counted)
	if err != nil {
		return err
	}
	for i, row := range v.Rows {
		if !row.User.Administrator {
			v.Rows[i].Devices = itoa(counts[row.User.ID])
		}
	}
	if hxTarget(c, "user-list") {
		return render(c, fiber.StatusOK, userList(v))
	}
	return render(c, fiber.StatusOK, usersPage(d.page(c, "Users", "users"), v))
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

// userForm is the page of one user (or a new one): its details and limits,
// and for an existing user its access, password and state. Which limits
// show follows the core's rules: administrators set everything; managers
// the restrictions of the users they manage, not their limits.
type userForm struct {
	User *model.User
	// Admin: the editor is an administrator. Restrict: the editor may set
	// the account's restrictions (not on its own account).
	Admin, Restrict bool
	// Self: the editor's own account (password and state on the profile).
	Self       bool
	ResetLinks bool
	Access     accessView
	Notice     string
	Problem    problemAt
}

// problemAt is the core's refusal and the form (section) it concerns.
type problemAt struct{ In, Text string }

// problemIn is the problem's text when it concerns section.
func (p problemAt) problemIn(section string) string {
	if p.In == section {
		return p.Text
	}
	return ""
}

// accessChoice is one device or group the editor may give.
type accessChoice struct {
	ID           int64
	Name, Detail string
	Linked       bool
}

type accessView struct{ Devices, Groups []accessChoice }

func (d *Dashboard) newUserForm(c *fiber.Ctx, u *model.User) userForm {
	actor := user(c)
	self := u.ID != 0 && u.ID == actor.ID
	return userForm{User: u, Admin: actor.Administrator, Restrict: actor.Administrator || (actor.Manager() && !self),
		Self: self, ResetLinks: d.core.Accounts.SendsResetLinks()}
}

func (d *Dashboard) userNew(c *fiber.Ctx) error {
	u := &model.User{DeviceLimit: -1}
	return d.renderUser(c, fiber.StatusOK, d.newUserForm(c, u))
}

func (d *Dashboard) userEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	u, err := d.core.Accounts.User(user(c), id)
	if err != nil {
		return err
	}
	f := d.newUserForm(c, u)
	f.Notice = userNotices[c.Query("done")]
	return d.renderUser(c, fiber.StatusOK, f)
}

// userNotices confirm an action after its redirect (?done=...).
var userNotices = map[string]string{
	"created":  "User added. Give them vehicles or groups below.",
	"saved":    "Changes saved.",
	"disabled": "The user is disabled: they cannot sign in, and their sessions have ended.",
	"enabled":  "The user is enabled again.",
	"password": "Password changed. The user's sessions have ended; they sign in with the new password.",
	"link":     "A password reset link was sent to the user's e-mail address.",
	"access":   "Access saved.",
}

// renderUser renders the user page; an existing user's access choices
// are loaded here, so every answer shows them.
func (d *Dashboard) renderUser(c *fiber.Ctx, status int, f userForm) error {
	title := "New user"
	if f.User.ID != 0 {
		title = f.User.Name
		var err error
		if f.Access, err = d.loadAccess(user(c), f.User.ID); err != nil {
			return err
		}
	}
	return render(c, status, userPage(d.page(c, title, "users"), f))
}

// loadAccess lists the devices and groups the actor may give, ticked
// where the user has them straight (not through a group).
func (d *Dashboard) loadAccess(actor *model.User, userID int64) (accessView, error) {
	var v accessView
	devices, err := d.core.Fleet.Devices.List(actor, model.Query{})
	if err != nil {
		return v, err
	}
	groups, err := d.core.Fleet.Groups.List(actor, model.Query{})
	if err != nil {
		return v, err
	}
	linked, err := d.linkedSet(actor, userID, model.KindDevice)
	if err != nil {
		return v, err
	}
	for _, dev := range devices {
		v.Devices = append(v.Devices, accessChoice{ID: dev.ID, Name: dev.Name, Detail: dev.UniqueID, Linked: linked[dev.ID]})
	}
	if linked, err = d.linkedSet(actor, userID, model.KindGroup); err != nil {
		return v, err
	}
	for _, g := range groups {
		v.Groups = append(v.Groups, accessChoice{ID: g.ID, Name: g.Name, Linked: linked[g.ID]})
	}
	return v, nil
}

func (d *Dashboard) linkedSet(actor *model.User, userID int64, kind string) (map[int64]bool, error) {
	ids, err := d.core.Fleet.Links(actor, model.KindUser, userID, kind)
	set := make(map[int64]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, err
}

func (d *Dashboard) userCreate(c *fiber.Ctx) error {
	f := d.newUserForm(c, &model.User{})
	created, err := d.core.Accounts.CreateUser(user(c), func(u *model.User) error {
		err := model.FirstError(readUser(c, u, f, display(c)), accounts.CheckNewPassword(c.FormValue("password")))
		u.Password = c.FormValue("password")
		*f.User = *u
		return err
	})
	if err != nil {
		f.User.Password, f.Problem = "", problemAt{"details", problemText(err)}
		return d.formFailed(c, err, func(status int) error { return d.renderUser(c, status, f) })
	}
	return redirect(c, userPath(created.ID)+"?done=created")
}

func (d *Dashboard) userUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	f := d.newUserForm(c, &model.User{})
	_, err = d.core.Accounts.UpdateUser(user(c), id, func(u *model.User) error {
		f = d.newUserForm(c, u)
		err := readUser(c, u, f, display(c))
		f.User = new(model.User)
		*f.User = *u
		return err
	})
	if err != nil {
		f.Problem = problemAt{"details", problemText(err)}
		return d.formFailed(c, err, func(status int) error { return d.renderUser(c, status, f) })
	}
	return redirect(c, userPath(id)+"?done=saved")
}

// readUser applies the user form to u: details for everyone (not one's own
// e-mail and phone), the restrictions and the limits for the editors f
// allows.
func readUser(c *fiber.Ctx, u *model.User, f userForm, show prefs.Display) error {
	r := &formReader{c: c}
	u.Name = r.text("name")
	if !f.Self { // one's own e-mail and phone change on the profile, confirmed by a code
		u.Email, u.Phone = r.text("email"), r.text("phone")
	}
	if f.Restrict {
		u.Readonly = c.FormValue("readonly") == "on"
		u.DeviceReadonly = c.FormValue("deviceReadonly") == "on"
		u.LimitCommands = c.FormValue("limitCommands") == "on"
		u.DisableReports = c.FormValue("disableReports") == "on"
		// The field shows a date, the store keeps an instant: only a date
		// other than the one shown is a new expiry.
		if r.text("expirationTime") != expiryDate(show, u.ExpirationTime) {
			u.ExpirationTime = r.expiry("expirationTime", show)
		}
	}
	if f.Admin {
		u.Administrator = c.FormValue("administrator") == "on"
		u.DeviceLimit = r.limit("deviceLimit", "Device limit")
		u.UserLimit = r.limit("userLimit", "User limit")
	}
	return r.err
}

// limit reads a count where -1 means unlimited.
func (r *formReader) limit(name, label string) int {
	n, err := strconv.Atoi(r.text(name))
	if err != nil || n < -1 {
		r.fail(model.Invalid("%s must be a whole number, -1 for no limit", label))
	}
	return n
}

// expiry reads an optional expiry date: the account expires at the start
// of that day in the viewer's time zone.
func (r *formReader) expiry(name string, show prefs.Display) *time.Time {
	s := r.text(name)
	if s == "" {
		return nil
	}
	zone := show.Zone
	if zone == nil {
		zone = time.UTC
	}
	t, err := time.ParseInLocation(time.DateOnly, s, zone)
	if err != nil {
		r.fail(model.Invalid("the expiry must be a date like 2026-03-01"))
		return nil
	}
	return &t
}

// expiryDate is an expiry for the date field, in the viewer's zone.
func expiryDate(show prefs.Display, t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return show.DateOf(*t)
}

func userPath(id int64) string { return Prefix + "/users/" + itoa(id) }

// userFormAction is where the details form posts: a new user or this one.
func userFormAction(f userForm) string {
	if f.User.ID == 0 {
		return Prefix + "/users"
	}
	return userPath(f.User.ID)
}
