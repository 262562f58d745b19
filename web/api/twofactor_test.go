package api_test

import (
	"io"
	"mime/quotedprintable"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/sinktest"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"github.com/pquerna/otp/totp"
)

// withTOTP turns two-factor login on for user1 with a key from the API.
func withTOTP(t *testing.T, e *env) {
	r := e.Call(t, "", "POST", "/api/users/totp", "")
	if r.Status != 200 || len(r.Body) < 16 {
		t.Fatalf("POST /users/totp: %d %q", r.Status, r.Body)
	}
	e.Values["totpKey"] = r.Body
	if r := e.Call(t, "user1", "PUT", "/api/users/{user1}", `{"totpKey":"`+r.Body+`"}`); r.Status != 200 {
		t.Fatalf("saving totpKey: %d %s", r.Status, r.Body)
	}
}

func code(t *testing.T, e *env) string {
	c, err := totp.GenerateCode(e.Values["totpKey"], time.Now())
	must(t, err)
	return c
}

func formLogin(t *testing.T, e *env, body string) *webtest.Response {
	return e.Send(t, "", e.Request(t, "POST", "/api/session", fiber.MIMEApplicationForm, body))
}

func TestTwoFactorLogin(t *testing.T) {
	run(t, []scenario{
		{Name: "the password alone asks for the code", Before: withTOTP, Method: "POST", Path: "/api/session",
			ContentType: fiber.MIMEApplicationForm, Body: "email=user1@example.com&password=user1-secret", Status: 401,
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				if r.Header.Get("WWW-Authenticate") != "TOTP" {
					t.Errorf("WWW-Authenticate %q, want TOTP (Traccar's apps then ask for the code)", r.Header.Get("WWW-Authenticate"))
				}
			}},
		{Name: "with the code: in, once", Before: withTOTP, Method: "GET", Path: "/api/session", Status: 404,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				c := code(t, e)
				if r := formLogin(t, e, "email=user1@example.com&password=user1-secret&code="+c); r.Status != 200 {
					t.Fatalf("login with the code: %d %s", r.Status, r.Body)
				}
				if r := formLogin(t, e, "email=user1@example.com&password=user1-secret&code="+c); r.Status != 401 {
					t.Errorf("the same code again: %d, want 401", r.Status)
				}
			}},
		{Name: "a wrong code", Before: withTOTP, Method: "POST", Path: "/api/session", ContentType: fiber.MIMEApplicationForm,
			Body: "email=user1@example.com&password=user1-secret&code=000000", Status: 401, Want: []string{"Invalid one-time code"}},
		{Name: "HTTP Basic cannot carry a code", As: "user1", Before: withTOTP, Method: "GET", Path: "/api/devices", Status: 401},
		{Name: "the extended API's login needs it too", Before: withTOTP, Method: "POST", Path: "/api2/auth/login",
			Body: `{"identifier":"user1@example.com","password":"user1-secret"}`, Status: 401},
		{Name: "a key no app could hold", As: "user1", Method: "PUT", Path: "/api/users/{user1}", Body: `{"totpKey":"short"}`,
			Status: 400, Want: []string{"totpKey"}},
		{Name: "turning it off again", As: "admin", Before: withTOTP, Method: "PUT", Path: "/api/users/{user1}", Body: `{"totpKey":""}`,
			Status: 200, After: func(t *testing.T, e *env, _ *webtest.Response) {
				if r := formLogin(t, e, "email=user1@example.com&password=user1-secret"); r.Status != 200 {
					t.Errorf("login after the key was cleared: %d", r.Status)
				}
			}},
	})
}

func TestTokens(t *testing.T) {
	token := func(t *testing.T, e *env) {
		r := e.Send(t, "user1", e.Request(t, "POST", "/api/session/token", fiber.MIMEApplicationForm,
			"expiration="+time.Now().Add(48*time.Hour).UTC().Format(time.RFC3339)))
		if r.Status != 200 || r.Body == "" || strings.Contains(r.Body, `"`) {
			t.Fatalf("token: %d %q", r.Status, r.Body)
		}
		e.Values["token"] = r.Body
	}
	bearer := func(t *testing.T, e *env, path string) int {
		req := e.Request(t, "GET", path, "", "")
		req.Header.Set("Authorization", "Bearer "+e.Values["token"])
		return webtest.Do(t, e.App, req).Status
	}
	run(t, []scenario{
		{Name: "log in with a token", Before: token, Method: "GET", Path: "/api/session?token={token}", Status: 200,
			Want: []string{`"id":{user1}`}, After: func(t *testing.T, e *env, r *webtest.Response) {
				if c := sessionCookie(t, r); c.Expires.After(time.Now().Add(49 * time.Hour)) {
					t.Errorf("the session outlives its token: %v", c.Expires)
				}
			}},
		{Name: "a token is a Bearer credential", Before: token, Method: "GET", Path: "/api/session", Status: 404,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if s := bearer(t, e, "/api/devices"); s != 200 {
					t.Errorf("Bearer: %d", s)
				}
			}},
		{Name: "another user cannot revoke it", As: "user2", Before: token, Method: "POST", Path: "/api/session/token/revoke",
			ContentType: fiber.MIMEApplicationForm, Body: "token={token}", Status: 404},
		{Name: "revoked, it no longer works", As: "user1", Before: token, Method: "POST", Path: "/api/session/token/revoke",
			ContentType: fiber.MIMEApplicationForm, Body: "token={token}", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if s := bearer(t, e, "/api/devices"); s != 401 {
					t.Errorf("Bearer after revoking: %d", s)
				}
				if r := e.Call(t, "", "GET", "/api/session?token={token}", ""); r.Status != 401 {
					t.Errorf("?token= after revoking: %d", r.Status)
				}
			}},
		{Name: "a password change ends it", Before: token, As: "user1", Method: "PUT", Path: "/api/users/{user1}",
			Body: `{"password":"user1-secret"}`, Status: 200, After: func(t *testing.T, e *env, _ *webtest.Response) {
				if s := bearer(t, e, "/api/devices"); s != 401 {
					t.Errorf("Bearer after a password change: %d", s)
				}
			}},
		{Name: "an expiration in the past", As: "user1", Method: "POST", Path: "/api/session/token", ContentType: fiber.MIMEApplicationForm,
			Body: "expiration=2020-01-01T00:00:00Z", Status: 400},
		{Name: "an expiration two years away", As: "user1", Method: "POST", Path: "/api/session/token", ContentType: fiber.MIMEApplicationForm,
			Body: "expiration=" + time.Now().AddDate(2, 0, 0).UTC().Format(time.RFC3339), Status: 400, Want: []string{"a year"}},
	})
}

func TestSessionAs(t *testing.T) {
	run(t, []scenario{
		{Name: "an administrator as a user", As: "admin", Method: "GET", Path: "/api/session/{user1}", Status: 200,
			Want: []string{`"id":{user1}`}, After: func(t *testing.T, e *env, r *webtest.Response) {
				if u, err := e.Core.Accounts.SessionUser(sessionCookie(t, r).Value); err != nil || u.ID != e.IDs["user1"] {
					t.Errorf("the cookie is not user1's session: %v", err)
				}
			}},
		{Name: "a manager as its user", As: "manager1", Method: "GET", Path: "/api/session/{user1}", Status: 200},
		{Name: "a manager as someone else's user", As: "manager1", Method: "GET", Path: "/api/session/{user2}", Status: 404},
		{Name: "a user as another", As: "user1", Method: "GET", Path: "/api/session/{user2}", Status: 403},
		{Name: "not as a disabled user", As: "admin", Before: func(t *testing.T, e *env) {
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user2"], func(u *model.User) error { u.Disabled = true; return nil })
			must(t, err)
		}, Method: "GET", Path: "/api/session/{user2}", Status: 401},
	})
}

func TestShareLinks(t *testing.T) {
	share := func(as, body string) func(*testing.T, *env) {
		return func(t *testing.T, e *env) {
			r := e.Send(t, as, e.Request(t, "POST", "/api/share/device", fiber.MIMEApplicationForm, body))
			if r.Status != 200 {
				t.Fatalf("share: %d %s", r.Status, r.Body)
			}
			e.Values["token"] = r.Body
		}
	}
	run(t, []scenario{
		{Name: "the link shows the device, read-only", Before: share("user1", "deviceId={d1}"), Method: "GET",
			Path: "/api/session?token={token}", Status: 200, Want: []string{`"readonly":true`, `"name":"Truck 1 (shared)"`},
			After: func(t *testing.T, e *env, r *webtest.Response) {
				c := sessionCookie(t, r)
				devices := e.requestWithCookie(t, c, "GET", "/api/devices")
				if !strings.Contains(devices.Body, `"id":`+itoa(e.IDs["d1"])) || strings.Contains(devices.Body, `"id":`+itoa(e.IDs["d3"])) {
					t.Errorf("the link's devices: %s", devices.Body)
				}
				if r := e.requestWithCookie(t, c, "GET", "/api/reports/route?deviceId="+itoa(e.IDs["d1"])+"&"+day); r.Status != 403 {
					t.Errorf("a report through the link: %d", r.Status)
				}
			}},
		{Name: "a device the caller does not see", As: "user2", Method: "POST", Path: "/api/share/device",
			ContentType: fiber.MIMEApplicationForm, Body: "deviceId={d1}", Status: 404},
		{Name: "sharing turned off", As: "user1", Before: func(t *testing.T, e *env) {
			e.Call(t, "admin", "PUT", "/api/server", `{"attributes":{"disableShare":true}}`)
		}, Method: "POST", Path: "/api/share/device", ContentType: fiber.MIMEApplicationForm, Body: "deviceId={d1}", Status: 403},
		{Name: "a group", As: "user2", Method: "POST", Path: "/api/share/group", ContentType: fiber.MIMEApplicationForm,
			Body: "groupId={g1}&expiration=" + time.Now().Add(time.Hour).UTC().Format(time.RFC3339), Status: 200},
		{Name: "the link ends with its user", Before: func(t *testing.T, e *env) {
			share("user1", "deviceId={d1}")(t, e)
			var id int64
			must(t, e.DB.View(func(tx model.Tx) error {
				u, err := tx.UserByEmail("device-" + itoa(e.IDs["d1"]) + ".by-" + itoa(e.IDs["user1"]) + "@share.invalid")
				if err == nil {
					id = u.ID
				}
				return err
			}))
			must(t, e.Core.Accounts.DeleteUser(model.System(), id))
		}, Method: "GET", Path: "/api/session?token={token}", Status: 401},
	})
}

func TestPasswordResetByLink(t *testing.T) {
	box := sinktest.NewInbox()
	e := newEnvWith(t, func(o *app.Options) {
		o.Accounts.Mail, o.Accounts.PublicURL = sinktest.SMTP(t, box), "https://fleet.example.com/"
	})
	form := func(path, body string) *webtest.Response {
		return e.Send(t, "", e.Request(t, "POST", path, fiber.MIMEApplicationForm, body))
	}
	if r := form("/api/password/reset", "email=USER1@example.com"); r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	if r := form("/api/password/reset", "email=nobody@example.com"); r.Status != 200 {
		t.Errorf("an unknown e-mail answers like a known one: %d", r.Status)
	}
	mails := box.To("user1@example.com")
	if len(mails) != 1 || box.Count() != 1 {
		t.Fatalf("mails %d to user1, %d in all", len(mails), box.Count())
	}
	body, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(mails[0])))
	must(t, err)
	link := regexp.MustCompile(`https://fleet\.example\.com/reset-password\?passwordReset=([A-Za-z0-9_%-]+)`).FindStringSubmatch(string(body))
	if link == nil {
		t.Fatalf("no link in %s", mails[0])
	}
	token, _ := url.QueryUnescape(link[1])
	if r := form("/api/password/update", "token="+url.QueryEscape(token)+"&password=new-secret-1"); r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Body)
	}
	if r := form("/api/session", "email=user1@example.com&password=new-secret-1"); r.Status != 200 {
		t.Errorf("login with the new password: %d", r.Status)
	}
	if r := form("/api/password/update", "token="+url.QueryEscape(token)+"&password=again-secret"); r.Status != 400 {
		t.Errorf("the token a second time: %d", r.Status)
	}
	// Without web.url: no link, a clear refusal.
	if r := newEnv(t).Send(t, "", e.Request(t, "POST", "/api/password/reset", fiber.MIMEApplicationForm, "email=user1@example.com")); r.Status != 400 ||
		!strings.Contains(r.Body, "web.url") {
		t.Errorf("no web.url: %d %s", r.Status, r.Body)
	}
}
