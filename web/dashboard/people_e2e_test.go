package dashboard_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/model"
)

// TestBrowserPeople drives headless Chromium through people management:
// an administrator adds a user and gives them a vehicle; the user signs
// in, lands on their profile (the only page they have), changes their
// password and chooses mph; the pages fit a phone.
func TestBrowserPeople(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	s := newSession(t, e)
	dash := s.base + "/dashboard"
	s.signIn(dash+"/login", "admin@example.com", password, "Overview")

	// Add a user from the users page.
	s.do("add a user",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/users"]`)),
		s.waitText("#user-list", "Dora Driver"),
		chromedp.Click(chromedp.CSS(`a[href="/dashboard/users/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#user-details input[name=email]`)),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=name]`), "Erin Ops"),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=email]`), "erin@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=password]`), "erin-first-pass"),
		chromedp.Click(chromedp.CSS(`#user-details button.primary`)),
		s.waitText(".notice", "User added"),
	)
	// Give her Truck One.
	truck := itoa(e.IDs["truck1"])
	s.do("give a vehicle",
		chromedp.Click(chromedp.CSS(`#user-access input[name=device][value="`+truck+`"]`)),
		chromedp.Click(chromedp.CSS(`#user-access button.primary`)),
		s.waitText(".notice", "Access saved"),
		waitTrue(`document.querySelector('#user-access input[name=device][value="`+truck+`"]').checked`),
	)
	s.screenshot("user")
	erin, err := e.Core.Accounts.Login("erin@example.com", "erin-first-pass", "", "192.0.2.9")
	if err != nil {
		t.Fatal(err)
	}
	if seen, err := e.Core.Fleet.Devices.List(erin, model.Query{}); err != nil || len(seen) != 1 || seen[0].ID != e.IDs["truck1"] {
		t.Fatalf("erin sees %v, %v", seen, err)
	}
	s.do("phone width", chromedp.EmulateViewport(390, 844))
	for _, page := range []string{"/users", "/users/" + itoa(erin.ID), "/profile"} {
		s.do("phone "+page, chromedp.Navigate(dash+page), chromedp.WaitVisible(chromedp.CSS("main h1")))
		if w := s.eval(`document.documentElement.scrollWidth`); w.(float64) > 391 {
			t.Errorf("%s is %v px wide at phone width", page, w)
		}
	}
	s.screenshot("phone-profile")
	s.do("wide again", chromedp.EmulateViewport(1280, 900))

	// Erin signs in: her profile, nothing else in the navigation.
	s.do("sign out", chromedp.Navigate(dash+"/profile"), chromedp.Click(chromedp.CSS(`form.logout button`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name=email]`)))
	s.signIn(dash+"/login", "erin@example.com", "erin-first-pass", "Your profile")
	if nav := s.eval(`[...document.querySelectorAll('nav.nav a')].map(a => a.textContent).join(',')`); nav != "Profile" {
		t.Errorf("a plain user's navigation: %v", nav)
	}
	s.do("change her password",
		chromedp.SendKeys(chromedp.CSS(`input[name=currentPassword]`), "erin-first-pass"),
		chromedp.SendKeys(chromedp.CSS(`input[name=newPassword]`), "erin-second-pass"),
		chromedp.SendKeys(chromedp.CSS(`input[name=repeatPassword]`), "erin-second-pass"),
		chromedp.Click(chromedp.CSS(`#profile-password button.primary`)),
		s.waitText(".notice", "Password changed"),
	)
	s.do("choose mph",
		chromedp.SetValue(chromedp.CSS(`#profile-details select[name=speedUnit]`), "mph"),
		chromedp.Click(chromedp.CSS(`#profile-details button.primary`)),
		s.waitText(".notice", "Profile saved"),
		waitTrue(`document.querySelector('#profile-details select[name=speedUnit]').value === 'mph'`),
	)
	s.screenshot("profile")
	if _, err := e.Core.Accounts.Login("erin@example.com", "erin-second-pass", "", "192.0.2.9"); err != nil {
		t.Errorf("the password changed in the browser: %v", err)
	}
	if u, _ := e.Core.Accounts.User(model.System(), erin.ID); u.Attributes["speedUnit"] != "mph" {
		t.Errorf("speed unit: %v", u.Attributes)
	}

	s.checkClean()
}
