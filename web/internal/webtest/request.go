package webtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// NewRequest is a request for path carrying body, declared as contentType
// unless that is empty.
func NewRequest(method, path, contentType, body string) *http.Request {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

// NewJSONRequest is a request carrying a JSON body; an empty body goes
// without a Content-Type.
func NewJSONRequest(method, path, body string) *http.Request {
	if body == "" {
		return NewRequest(method, path, "", "")
	}
	return NewRequest(method, path, fiber.MIMEApplicationJSON, body)
}

// Do sends req through f and reads the answer. It waits as long as the
// handler takes: a slow, shared test machine is no failure.
func Do(t testing.TB, f *fiber.App, req *http.Request) *Response {
	t.Helper()
	res, err := f.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	return Read(t, res)
}

// Read reads res whole and closes its body.
func Read(t testing.TB, res *http.Response) *Response {
	t.Helper()
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: string(data)}
}
