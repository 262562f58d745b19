package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/web/https/httpstest"
)

// With web.tls, serve answers HTTPS with the configured certificate,
// marks the session cookie Secure without web.secureCookies, sends plain
// HTTP on web.tls.redirectAddress to HTTPS, and `fleetd health` asks over
// HTTPS.
func TestServeHTTPS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	leaf := httpstest.WritePair(t, certFile, keyFile, 1)
	e := newEnv(t, fmt.Sprintf("web:\n  address: '127.0.0.1:0'\n  tls: {certFile: %q, keyFile: %q, redirectAddress: '127.0.0.1:0'}\n%s",
		certFile, keyFile, anyPorts))
	e.run("", "user", "add", "--email", "a@example.com", "--password", "pw").expect(t, "add", 0)
	s := e.serve(t)
	base := "https://" + s.server.WebAddr.String()

	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(base+"/api/session", url.Values{"email": {"a@example.com"}, "password": {"pw"}})
	if err != nil {
		t.Fatalf("HTTPS with the configured certificate: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.TLS == nil || res.TLS.PeerCertificates[0].SerialNumber.Cmp(leaf.SerialNumber) != 0 {
		t.Fatalf("POST /api/session over HTTPS: %d, TLS %v", res.StatusCode, res.TLS != nil)
	}
	var cookie *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "JSESSIONID" {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.Secure || !cookie.HttpOnly {
		t.Fatalf("session cookie %+v, want Secure and HttpOnly", cookie)
	}

	// Plain HTTP on the HTTPS port gets no page.
	if res, err := http.Get("http://" + s.server.WebAddr.String() + "/api/health"); err == nil {
		res.Body.Close()
		if res.StatusCode == 200 {
			t.Fatal("the HTTPS port answered plain HTTP")
		}
	}

	// The redirect address sends browsers to HTTPS, path and query kept.
	if s.server.RedirectAddr == nil {
		t.Fatal("no redirect listener")
	}
	req, _ := http.NewRequest("GET", "http://"+s.server.RedirectAddr.String()+"/dashboard/?from=link", nil)
	req.Host = "fleet.example.com"
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	_, port, _ := net.SplitHostPort(s.server.WebAddr.String())
	if want := "https://fleet.example.com:" + port + "/dashboard/?from=link"; res.StatusCode != http.StatusPermanentRedirect || res.Header.Get("Location") != want {
		t.Fatalf("redirect: %d %q, want 308 %q", res.StatusCode, res.Header.Get("Location"), want)
	}

	e.run("", "health", "--url", base+"/api/health").expect(t, "health over HTTPS", 0)
}

// A half-configured or broken HTTPS setting stops start-up with what to fix.
func TestHTTPSConfigProblems(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	httpstest.WritePair(t, certFile, keyFile, 1)
	broken := filepath.Join(dir, "broken.pem")
	if err := os.WriteFile(broken, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tls, want string }{
		{fmt.Sprintf("{certFile: %q}", certFile), "give both or neither"},
		{fmt.Sprintf("{certFile: %q, keyFile: %q}", certFile, broken), "web.tls.certFile, web.tls.keyFile:"},
		{"{redirectAddress: ':0'}", "there is no HTTPS to redirect to"},
	} {
		e := newEnv(t, "web:\n  address: '127.0.0.1:0'\n  tls: "+tc.tls+"\n"+anyPorts)
		r := e.run("", "serve")
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("web.tls %s: exit %d, %q; want %q", tc.tls, r.code, r.stderr, tc.want)
		}
	}
}
