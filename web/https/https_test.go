package https

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/web/https/httpstest"
)

// A renewed pair is served once the files change (looked at every
// recheck); a pair that does not load keeps the one in use.
func TestCertificateRenewal(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	httpstest.WritePair(t, certFile, keyFile, 1)
	c, err := Load(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now()
	c.now = func() time.Time { return clock }
	serial := func() int64 {
		leaf, err := x509.ParseCertificate(c.current().Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.SerialNumber.Int64()
	}
	httpstest.WritePair(t, certFile, keyFile, 2)
	if got := serial(); got != 1 {
		t.Fatalf("serial %d before the recheck, want 1", got)
	}
	clock = clock.Add(recheck)
	if got := serial(); got != 2 {
		t.Fatalf("serial %d after the renewal, want 2", got)
	}
	if err := os.WriteFile(keyFile, []byte("half a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(recheck)
	if got := serial(); got != 2 {
		t.Fatalf("serial %d with a broken key file, want 2 kept", got)
	}
	if _, err := Load(certFile, keyFile, slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("Load took a broken pair")
	}
}

// Plain HTTP is sent to the same host and path over HTTPS; a Host that
// could point the redirect elsewhere is refused.
func TestRedirect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Redirect(ln, "8443", &Certificate{})
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		host, path string
		status     int
		location   string
	}{
		{"fleet.example.com", "/dashboard/?a=1", 308, "https://fleet.example.com:8443/dashboard/?a=1"},
		{"fleet.example.com:80", "/api/session", 308, "https://fleet.example.com:8443/api/session"},
		{"[2001:db8::1]:80", "/", 308, "https://[2001:db8::1]:8443/"},
		{"[2001:db8::1]", "/", 308, "https://[2001:db8::1]:8443/"},
		{"evil.example/x", "/", 400, ""},
		{"user@evil.example", "/", 400, ""},
	} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+tc.path, nil)
		req.Host = tc.host
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get("Location") != tc.location {
			t.Errorf("Host %q %s: %d %q, want %d %q", tc.host, tc.path, res.StatusCode, res.Header.Get("Location"), tc.status, tc.location)
		}
	}
}

// The configuration offers TLS 1.2 and later only.
func TestConfigRefusesOldTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	leaf := httpstest.WritePair(t, certFile, keyFile, 1)
	c, err := Load(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", c.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { conn.(*tls.Conn).Handshake(); conn.Close() }()
		}
	}()
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	for _, tc := range []struct {
		max uint16
		ok  bool
	}{{tls.VersionTLS11, false}, {tls.VersionTLS12, true}, {tls.VersionTLS13, true}} {
		conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: roots, ServerName: "fleetd.test",
			MinVersion: tls.VersionTLS10, MaxVersion: tc.max})
		if (err == nil) != tc.ok {
			t.Errorf("client up to %x: handshake error %v, want ok=%v", tc.max, err, tc.ok)
		}
		if conn != nil {
			conn.Close()
		}
	}
}

// Listen serves TLS with the pair from files and redirects plain HTTP from
// the redirect address to the HTTPS port.
func TestListen(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	leaf := httpstest.WritePair(t, certFile, keyFile, 1)
	log := slog.New(slog.DiscardHandler)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tl, redirect, err := Listen(ln, Options{CertFile: certFile, KeyFile: keyFile, RedirectAddress: "127.0.0.1:0"}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer redirect.Close()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "secure") })}
	go srv.Serve(tl)
	defer srv.Close()

	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	res, err := client.Get("http://" + redirect.Addr().String() + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.Request.URL.String() != "https://127.0.0.1:"+port+"/api/health" || string(body) != "secure" {
		t.Errorf("plain HTTP ended at %s with %q, want the HTTPS port answering", res.Request.URL, body)
	}

	if _, r, err := Listen(ln, Options{CertFile: certFile, KeyFile: keyFile}, log); err != nil || r != nil {
		t.Errorf("without a redirect address: %v, %v", r, err)
	}
	if same, r, err := Listen(ln, Options{}, log); same != ln || r != nil || err != nil {
		t.Errorf("without certificates: %v, %v, %v; want the listener as it is", same, r, err)
	}
	var none *Redirecting
	if none.Addr() != nil || none.Close() != nil {
		t.Error("no redirect has an address or fails to close")
	}
	for name, o := range map[string]Options{
		"missing files":      {CertFile: filepath.Join(dir, "none.pem"), KeyFile: keyFile},
		"taken address":      {CertFile: certFile, KeyFile: keyFile, RedirectAddress: ln.Addr().String()},
		"missing ACME roots": {ACME: ACMEOptions{Hosts: []string{"fleet.example.com"}, Roots: filepath.Join(dir, "none.pem")}},
	} {
		if _, _, err := Listen(ln, o, log); err == nil || !strings.Contains(err.Error(), "web.tls") {
			t.Errorf("%s: %v, want a web.tls error", name, err)
		}
	}
}
