package webtest

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// sessionApp stands in for POST /api/session: the right form answers 200
// with a cookie, as cookie names it; noCookie answers 200 without one.
func sessionApp(cookie string) *fiber.App {
	f := fiber.New()
	f.Post("/api/session", func(c *fiber.Ctx) error {
		if c.FormValue("email") != "a+b@example.com" || c.FormValue("password") != "p&w=1" {
			return c.SendStatus(401)
		}
		if cookie != "" {
			c.Cookie(&fiber.Cookie{Name: cookie, Value: "token-1", HTTPOnly: true, Path: "/"})
		}
		return c.SendString("{}")
	})
	return f
}

func TestLogin(t *testing.T) {
	cases := []struct {
		name, cookie, password string
		fails                  string // fragment of the failure; "" none
	}{
		{name: "signed in", cookie: httpx.SessionCookie, password: "p&w=1"},
		{name: "refused", cookie: httpx.SessionCookie, password: "wrong", fails: "login a+b@example.com: 401"},
		{name: "no session cookie", cookie: "other", password: "p&w=1", fails: "set no JSESSIONID cookie"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := sessionApp(tc.cookie)
			var got string
			r := record(t, func(tb testing.TB) {
				c := Login(tb, f, "a+b@example.com", tc.password)
				got = c.String()
			})
			if tc.fails != "" {
				r.check(t, true, true, tc.fails)
				return
			}
			r.check(t, false, false)
			// Only name and value: attributes are the server's business.
			if want := httpx.SessionCookie + "=token-1"; got != want {
				t.Errorf("cookie %q, want %q", got, want)
			}
		})
	}
}

// SessionCookie's cookie is a session the core knows, of the user given.
func TestSessionCookie(t *testing.T) {
	e := testWorld(t)
	core := e.Core
	u, err := core.Accounts.User(model.System(), e.IDs["ada"])
	if err != nil {
		t.Fatal(err)
	}
	c := SessionCookie(t, core, u)
	if c.Name != httpx.SessionCookie {
		t.Errorf("cookie name %q", c.Name)
	}
	got, err := core.Accounts.SessionUser(c.Value)
	if err != nil || got.ID != u.ID {
		t.Fatalf("session of %v (%v), want user %d", got, err, u.ID)
	}
}
