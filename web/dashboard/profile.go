package dashboard

import (
	"net/url"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/app/timezone"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// profilePath is every signed-in user's own page: name, password, e-mail
// and phone, display preferences; for administrators the server's
// defaults too.
const profilePath = Prefix + "/profile"

func (d *Dashboard) profileRoutes() []route {
	return []route{
		{"GET", "/profile", d.profile},
		{"POST", "/profile", d.profileUpdate},
		{"POST", "/profile/password", d.profilePassword},
		{"POST", "/profile/contact", d.contactStart},
		{"POST", "/profile/contact/verify", d.contactVerify},
		{"POST", "/profile/server", d.serverDefaults},
	}
}

// profileView is the profile page. User is the account as stored, or as
// submitted when the core refused it; Server is the server's settings
// (their defaults show in the choices); Verify, when set, is the e-mail
// or phone change waiting for its code.
type profileView struct {
	User    *model.User
	Server  *model.Server
	Verify  contactChange
	Notice  string
	Problem problemAt
}

// contactChange is a new e-mail (Field "email") or phone ("phone").
type contactChange struct{ Field, Value string }

func readContact(field, value string) contactChange {
	if field != "email" && field != "phone" {
		return contactChange{}
	}
	return contactChange{Field: field, Value: value}
}

// profileNotices confirm an action after its redirect (?done=...).
var profileNotices = map[string]string{
	"profile":  "Profile saved.",
	"password": "Password changed. Your other sessions have ended.",
	"email":    "Your e-mail address is changed: sign in with the new one.",
	"phone":    "Your phone number is changed.",
	"server":   "Server defaults saved.",
}

func (d *Dashboard) profile(c *fiber.Ctx) error {
	v := profileView{User: user(c), Notice: profileNotices[c.Query("done")],
		Verify: readContact(c.Query("verify"), c.Query("value"))}
	return d.renderProfile(c, fiber.StatusOK, v)
}

func (d *Dashboard) renderProfile(c *fiber.Ctx, status int, v profileView) error {
	if v.Server == nil {
		var err error
		if v.Server, err = d.core.Accounts.ServerFor(user(c)); err != nil {
			return err
		}
	}
	return render(c, status, profilePage(d.page(c, "Profile", "profile"), v))
}

// readonlyProfile: the viewer's account (or the server) is read-only, so
// the core takes only the password and display preferences from it.
func readonlyProfile(v profileView) bool {
	return !v.User.Administrator && (v.User.Readonly || v.Server.Readonly)
}

// profileFailed shows the profile with err next to section's form. A
// wrong current password is no reason to sign out, so it is a refusal
// here, not the 401 that ends the session elsewhere.
func (d *Dashboard) profileFailed(c *fiber.Ctx, v profileView, section string, err error) error {
	v.Problem = problemAt{section, problemText(err)}
	again := func(status int) error { return d.renderProfile(c, status, v) }
	switch model.ClassOf(err) {
	case model.ClassUnauthorized:
		return again(fiber.StatusForbidden)
	case model.ClassTooMany:
		return again(fiber.StatusTooManyRequests)
	case model.ClassUnavailable: // a code that could not be sent
		return again(fiber.StatusServiceUnavailable)
	}
	return d.formFailed(c, err, again)
}

// profileUpdate saves the name and the display preferences (a read-only
// account: the preferences only, the core's rule).
func (d *Dashboard) profileUpdate(c *fiber.Ctx) error {
	actor := user(c)
	submitted := *actor
	_, err := d.core.Accounts.UpdateUser(actor, actor.ID, func(u *model.User) error {
		u.Name = (&formReader{c: c}).text("name")
		u.TwelveHourFormat = c.FormValue("twelveHourFormat") == "on"
		err := setPrefs(c, &u.Attributes, prefs.ZoneAttribute, prefs.SpeedAttribute, prefs.DistanceAttribute)
		submitted = *u
		return err
	})
	if err != nil {
		return d.profileFailed(c, profileView{User: &submitted}, "profile", err)
	}
	return redirect(c, profilePath+"?done=profile")
}

// serverPrefs are the preferences the server sets for users who chose none.
var serverPrefs = []string{prefs.ZoneAttribute, prefs.SpeedAttribute, prefs.DistanceAttribute, prefs.CurrencyAttribute}

// setPrefs sets each preference attribute from the form field of its name.
func setPrefs(c *fiber.Ctx, attrs *model.Attributes, names ...string) error {
	if *attrs == nil {
		*attrs = model.Attributes{}
	}
	var first error
	for _, name := range names {
		first = model.FirstError(first, prefs.Set(*attrs, name, (&formReader{c: c}).text(name)))
	}
	return first
}

// profilePassword changes the caller's password after checking the
// current one. The core ends every session of the account, so this
// browser gets a new one and stays signed in.
func (d *Dashboard) profilePassword(c *fiber.Ctx) error {
	actor := user(c)
	v := profileView{User: actor}
	next := c.FormValue("newPassword")
	if err := accounts.CheckNewPassword(next); err != nil {
		return d.profileFailed(c, v, "password", err)
	}
	if next != c.FormValue("repeatPassword") {
		return d.profileFailed(c, v, "password", model.Invalid("the new password and its repetition differ"))
	}
	if _, err := d.core.Accounts.VerifyPassword(actor, c.FormValue("currentPassword"), c.IP()); err != nil {
		return d.profileFailed(c, v, "password", err)
	}
	u, err := d.core.Accounts.UpdateUser(actor, actor.ID, func(u *model.User) error { u.Password = next; return nil })
	if err != nil {
		return d.profileFailed(c, v, "password", err)
	}
	token, expires, err := d.core.Accounts.CreateSession(u, c.IP())
	if err != nil {
		return err
	}
	httpx.SetSessionCookie(c, token, expires, d.opts.SecureCookies)
	// A whole page load: the new session has a new CSRF token, which the
	// body's hx-headers must carry.
	return reload(c, profilePath+"?done=password")
}

// contactStart sends a code to the new e-mail address or phone number;
// the page then asks for it.
func (d *Dashboard) contactStart(c *fiber.Ctx) error {
	change := contactChange{Field: c.FormValue("field"), Value: (&formReader{c: c}).text("value")}
	if err := d.core.Accounts.StartContactUpdate(user(c), change.Field, change.Value, c.IP()); err != nil {
		return d.profileFailed(c, profileView{User: user(c)}, "contact", err)
	}
	return redirect(c, profilePath+"?"+url.Values{"verify": {change.Field}, "value": {change.Value}}.Encode())
}

// contactVerify applies the change once the code sent to it is right.
func (d *Dashboard) contactVerify(c *fiber.Ctx) error {
	change := readContact(c.FormValue("field"), c.FormValue("value"))
	_, err := d.core.Accounts.FinishContactUpdate(user(c), c.FormValue("field"), c.FormValue("value"), c.FormValue("code"))
	if err != nil {
		return d.profileFailed(c, profileView{User: user(c), Verify: change}, "verify", err)
	}
	return redirect(c, profilePath+"?done="+change.Field)
}

// serverDefaults sets the server's display defaults (administrators): what
// users who chose nothing see.
func (d *Dashboard) serverDefaults(c *fiber.Ctx) error {
	_, err := d.core.Accounts.UpdateServer(user(c), func(s *model.Server) error {
		return setPrefs(c, &s.Attributes, serverPrefs...)
	})
	if err != nil { // the form comes back as typed
		typed := model.Attributes{}
		for _, name := range serverPrefs {
			typed[name] = (&formReader{c: c}).text(name)
		}
		return d.profileFailed(c, profileView{User: user(c), Server: &model.Server{Attributes: typed}}, "server", err)
	}
	return redirect(c, profilePath+"?done=server")
}

// attr is a string attribute ("" when unset or not a string).
func attr(attrs model.Attributes, name string) string {
	s, _ := attrs[name].(string)
	return s
}

// zoneOptions are the time zones, after a first choice for none.
func zoneOptions(none string) []option {
	names := timezone.Names()
	opts := make([]option, 0, len(names)+1)
	opts = append(opts, option{"", none})
	for _, n := range names {
		opts = append(opts, option{n, n})
	}
	return opts
}

// unitOptions are a preference's choices, after a first choice for none.
func unitOptions(none string, choices []prefs.Choice) []option {
	opts := []option{{"", none}}
	for _, ch := range choices {
		opts = append(opts, option{ch.Value, ch.Label})
	}
	return opts
}
