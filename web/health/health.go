// Package health is the client side of GET /api/health: the check that
// fleetd health runs for container health checks and scripts (the image
// has no curl).
package health

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// timeout bounds one check.
const timeout = 5 * time.Second

// URL is the health endpoint on this machine for the server's listen
// address (web.address), over HTTPS when the server serves it; a wildcard
// or missing host is asked through 127.0.0.1.
func URL(address string, https bool) string {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		host, port = "", "8082"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	scheme := "http://"
	if https {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, port) + "/api/health"
}

// Check asks url and fails unless it answers 200 OK.
func Check(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	// The check asks whether this machine's server answers; its
	// certificate names the public host, not the loopback address asked.
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("health: " + url + " answered " + resp.Status)
	}
	return nil
}
