package main

import (
	"net/http"
	"strings"
	"testing"
)

// loginStatus posts an A2 login to the running server.
func loginStatus(t *testing.T, s *serving) int {
	t.Helper()
	resp, err := http.Post("http://"+s.WebAddr.String()+"/api2/auth/login", "application/json",
		strings.NewReader(`{"identifier":"nobody@example.com","password":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestMaintenanceCommand switches maintenance mode in the stopped store and
// through the control socket of a running server.
func TestMaintenanceCommand(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	e.run("", "maintenance", "on").expect(t, "no store yet", 1, "no store at")
	e.run("", "maintenance", "sideways").expect(t, "bad argument", 1, "invalid argument")
	e.run("pw\n", "user", "add", "--email", "admin@example.com", "--admin").expect(t, "user add", 0)
	e.run("", "maintenance", "on").expect(t, "on, stopped", 0, "maintenance mode on (store")
	e.run("", "maintenance", "status").expect(t, "status, stopped", 0, "maintenance mode on (store")

	s := e.serve(t)
	if got := loginStatus(t, s); got != http.StatusForbidden {
		t.Fatalf("login in maintenance: %d, want 403", got)
	}
	e.run("", "maintenance", "off").expect(t, "off, running", 0, "maintenance mode off (running server)")
	if got := loginStatus(t, s); got != http.StatusNotFound {
		t.Fatalf("login after maintenance: %d, want 404 (unknown identifier)", got)
	}
	e.run("", "maintenance", "status").expect(t, "status, running", 0, "maintenance mode off (running server)")
}
