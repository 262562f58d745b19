package dashboard

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"
)

// A component that fails half-way sends nothing of what it wrote.
func TestRenderIsAllOrNothing(t *testing.T) {
	failing := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		if _, err := io.WriteString(w, "<h1>half a page"); err != nil {
			return err
		}
		return errors.New("template broke")
	})
	whole := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, "<h1>whole</h1>")
		return err
	})
	f := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		return c.Status(500).SendString("error: " + err.Error())
	}})
	f.Get("/fail", func(c *fiber.Ctx) error { return render(c, 201, failing) })
	f.Get("/ok", func(c *fiber.Ctx) error { return render(c, 201, whole) })
	cases := []struct {
		path   string
		status int
		body   string
	}{
		{"/fail", 500, "error: template broke"},
		{"/ok", 201, "<h1>whole</h1>"},
	}
	for _, tc := range cases {
		res, err := f.Test(httptest.NewRequest("GET", tc.path, nil))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != tc.status || string(body) != tc.body {
			t.Errorf("GET %s = %d %q", tc.path, res.StatusCode, body)
		}
	}
}

func TestSafeNext(t *testing.T) {
	cases := map[string]string{
		"":                       "/dashboard/",
		"/dashboard/tickets?q=x": "/dashboard/tickets?q=x",
		"https://evil.example/":  "/dashboard/",
		"//evil.example":         "/dashboard/",
		"/dashboardx":            "/dashboard/",
		`/dashboard/\\evil`:      "/dashboard/",
		"/api/session":           "/dashboard/",
	}
	for in, want := range cases {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}
