package control

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// Client is the CLI's side of the control socket at Socket.
type Client struct {
	Socket string
}

// Backup streams a consistent copy of the running server's store to w.
func (c Client) Backup(ctx context.Context, w io.Writer) (int64, error) {
	resp, err := c.do(ctx, http.MethodGet, "/backup", "")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("control socket answered %s", resp.Status)
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("backup stream broke off after %d bytes (see the fleetd serve log): %w", n, err)
	}
	return n, nil
}

// Maintenance applies action ("on", "off" or "status") to the running
// server's maintenance mode and reports whether it is on.
func (c Client) Maintenance(ctx context.Context, action string) (bool, error) {
	method, body := http.MethodGet, ""
	if action != "status" {
		method, body = http.MethodPut, action
	}
	resp, err := c.do(ctx, method, "/maintenance", body)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var st struct{ Maintenance bool }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&st) != nil {
		return false, fmt.Errorf("control socket answered %s", resp.Status)
	}
	return st.Maintenance, nil
}

// do sends one request to the socket. The caller closes the response body.
func (c Client) do(ctx context.Context, method, path, body string) (*http.Response, error) {
	transport := &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", c.Socket)
		},
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://fleetd"+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		return nil, fmt.Errorf("the store is locked by a running fleetd serve, but its control socket does not answer: %w", err)
	}
	return resp, nil
}
