package httpx

import (
	"github.com/fleetd/fleetd/app"
	"github.com/gofiber/fiber/v2"
)

// Access says who may call a route.
type Access int

const (
	Public   Access = iota // anyone; credentials are not looked at
	Optional               // anyone; a caller that sends credentials is identified
	Required               // the JSESSIONID cookie or HTTP Basic (/api)
	Session                // the JSESSIONID cookie only (/api2)
)

// Route is one endpoint of an API's route table.
type Route struct {
	Method string
	Path   string // relative to the API's mount point
	Access Access
	Handle fiber.Handler
}

// Mount adds routes to r, each behind the authentication its Access names.
// R is an API's own route type (type route httpx.Route), so its route
// table can use short positional literals.
func Mount[R ~struct {
	Method string
	Path   string
	Access Access
	Handle fiber.Handler
}](r fiber.Router, core *app.Core, routes []R) {
	auth := Authenticator{Core: core}
	guards := map[Access][]fiber.Handler{
		Optional: {auth.Optional()},
		Required: {auth.Required()},
		Session:  {auth.Session()},
	}
	// Every request counts in the usage statistics, with its user.
	count := func(c *fiber.Ctx) error {
		var id int64
		if u := User(c); u != nil {
			id = u.ID
		}
		core.Activity.Request(id)
		return c.Next()
	}
	for _, x := range routes {
		rt := Route(x)
		r.Add(rt.Method, rt.Path, append(append(guards[rt.Access], count), rt.Handle)...)
	}
}
