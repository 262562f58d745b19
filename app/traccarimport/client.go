package traccarimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// client reads a Traccar server's REST API in an administrator's session
// (the JSESSIONID cookie POST /api/session sets).
type client struct {
	base                  string // the server's URL, without a trailing slash
	email, password, totp string
	http                  *http.Client
	// retryWait is the wait before the first retry of a request that
	// failed on the way (it doubles for each of the next ones).
	retryWait time.Duration
	requests  int // GET requests sent, for the summary
}

// retries is how often a GET that failed on the way (the network, a
// proxy's 502/503/504) is tried again; a long history import should not
// stop on one dropped connection.
const retries = 3

func newClient(o *Options) (*client, error) {
	u, err := url.Parse(strings.TrimSpace(o.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: give the Traccar server's address, like https://traccar.example.com", o.URL)
	}
	u.RawQuery, u.Fragment, u.Host = "", "", strings.ToLower(u.Host) // one server, one spelling
	base := strings.TrimSuffix(u.String(), "/")
	base = strings.TrimSuffix(base, "/api") // a URL of the API itself
	hc := o.Client
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Minute} // a day of 1 s positions is a large answer
	}
	jar, _ := cookiejar.New(nil) // never fails without options
	copied := *hc
	copied.Jar = jar
	return &client{base: base, email: o.Email, password: o.Password, totp: o.TOTP, http: &copied, retryWait: o.retryWait}, nil
}

// errLogin is a login Traccar refused.
var errLogin = errors.New("traccar login refused")

// login opens a session and returns the user it is for.
func (c *client) login(ctx context.Context) (*model.User, error) {
	form := url.Values{"email": {c.email}, "password": {c.password}}
	if c.totp != "" {
		form.Set("code", c.totp)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/session", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Traccar at %s: %w", c.base, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized && strings.EqualFold(resp.Header.Get("WWW-Authenticate"), "TOTP"):
		return nil, fmt.Errorf("%w: Traccar asks %s for a one-time code (two-factor authentication): give it with --totp CODE", errLogin, c.email)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%w: Traccar at %s refused the login of %s (%s): check --email and --password",
			errLogin, c.base, c.email, resp.Status)
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("%s does not look like a Traccar server: POST /api/session answered %s", c.base, resp.Status)
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("Traccar login at %s failed: %s%s", c.base, resp.Status, snippet(resp.Body))
	}
	var u model.User
	if err := json.NewDecoder(resp.Body).Decode(&u); err != nil {
		return nil, fmt.Errorf("%s does not look like a Traccar server: POST /api/session did not answer a user (%v)", c.base, err)
	}
	return &u, nil
}

// get decodes the JSON answer to GET /api/<path>?<q> into out. It logs in
// again once when the session has ended (Traccar restarted, or it expired
// during a long import), and retries what failed on the way.
func (c *client) get(ctx context.Context, path string, q url.Values, out any) error {
	relogged := false
	wait := c.retryWait
	for attempt := 0; ; attempt++ {
		err, retry := c.try(ctx, path, q, out)
		var status *statusError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &status) && status.code == http.StatusUnauthorized && !relogged:
			relogged = true
			if _, lerr := c.login(ctx); lerr != nil {
				return fmt.Errorf("the Traccar session ended and logging in again failed: %w", lerr)
			}
			continue
		case !retry || attempt >= retries || ctx.Err() != nil:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// statusError is an answer other than 2xx.
type statusError struct {
	code int
	what string
}

func (e *statusError) Error() string { return e.what }

// try sends one GET; retry says whether a failure may pass if tried again.
func (c *client) try(ctx context.Context, path string, q url.Values, out any) (err error, retry bool) {
	target := c.base + "/api/" + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err, false
	}
	req.Header.Set("Accept", "application/json")
	c.requests++
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", target, err), true
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		retry := resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusServiceUnavailable ||
			resp.StatusCode == http.StatusGatewayTimeout || resp.StatusCode == http.StatusTooManyRequests
		return &statusError{resp.StatusCode, fmt.Sprintf("Traccar answered %s to GET %s%s", resp.Status, target, snippet(resp.Body))}, retry
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("GET %s: the answer is not the JSON expected: %w", target, err), true
	}
	return nil, false
}

// snippet is the start of an error answer's body, which Traccar fills
// with the exception's message.
func snippet(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, 300))
	s := strings.Join(strings.Fields(string(b)), " ")
	if s == "" {
		return ""
	}
	return ": " + s
}

// apiTime is how times go into Traccar's query parameters (ISO 8601, UTC,
// milliseconds, which are Traccar's precision).
func apiTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// listQuery is the query of a list: all=true, or the objects linked to
// one owner (userId=N: the user's own links; deviceId= / groupId=: with
// all=true, every object linked to the device or group, not only those
// the administrator is linked to as well).
func listQuery(ownerParam string, ownerID int64) url.Values {
	switch ownerParam {
	case "":
		return url.Values{"all": {"true"}}
	case "userId":
		return url.Values{"userId": {strconv.FormatInt(ownerID, 10)}}
	}
	return url.Values{"all": {"true"}, ownerParam: {strconv.FormatInt(ownerID, 10)}}
}
