package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// With web.tls.acmeHosts, serve obtains its certificate from an ACME
// authority on the first handshake naming the host: here Debian's pebble,
// a local ACME test server that skips the challenge validation.
func TestServeHTTPSWithACME(t *testing.T) {
	pebble, err := exec.LookPath("pebble")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pebble is not installed: .ci/run installs it")
		}
		t.Skip("pebble (Debian's ACME test server) is not installed: apt-get install pebble")
	}
	dir := t.TempDir()
	apiCert, apiKey := filepath.Join(dir, "pebble-cert.pem"), filepath.Join(dir, "pebble-key.pem")
	apiLeaf := httpstest.WritePair(t, apiCert, apiKey, 7)
	api, mgmt := freeAddress(t), freeAddress(t)
	conf := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(conf, fmt.Appendf(nil, `{"pebble": {"listenAddress": %q, "managementListenAddress": %q,
		"certificate": %q, "privateKey": %q, "httpPort": 5002, "tlsPort": 5001, "ocspResponderURL": "",
		"externalAccountBindingRequired": false}}`, api, mgmt, apiCert, apiKey), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pebble, "-config", conf)
	cmd.Env = append(os.Environ(), "PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	var pebbleLog strings.Builder
	cmd.Stdout, cmd.Stderr = &pebbleLog, &pebbleLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	apiRoots := x509.NewCertPool()
	apiRoots.AddCert(apiLeaf)
	pebbleClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: apiRoots}}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, err := pebbleClient.Get("https://" + api + "/dir"); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble did not start:\n%s", pebbleLog.String())
		}
	}

	e := newEnv(t, fmt.Sprintf("web:\n  address: '127.0.0.1:0'\n  tls: {acmeHosts: [fleet.test], acmeDirectory: %q, acmeRoots: %q}\n%s",
		"https://"+api+"/dir", apiCert, anyPorts))
	s := e.serve(t)

	// The certificate pebble issued, checked against pebble's root.
	res, err := pebbleClient.Get("https://" + mgmt + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	rootPEM, _ := io.ReadAll(res.Body)
	res.Body.Close()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(rootPEM) {
		t.Fatalf("pebble's root: %q", rootPEM)
	}
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "fleet.test"},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, s.server.WebAddr.String())
		}}}
	res, err = client.Get("https://fleet.test/api/health")
	if err != nil {
		t.Fatalf("HTTPS with the ACME certificate: %v\npebble:\n%s\nfleetd:\n%s", err, pebbleLog.String(), s.log)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.TLS.PeerCertificates[0].DNSNames[0] != "fleet.test" {
		t.Fatalf("GET /api/health: %d, certificate for %v", res.StatusCode, res.TLS.PeerCertificates[0].DNSNames)
	}
	cached, _ := os.ReadDir(filepath.Join(e.dir, "acme"))
	if len(cached) < 2 { // the account key and the certificate
		t.Errorf("data.dir/acme holds %d files, want the account key and the certificate", len(cached))
	}

	// A host that is not configured gets no certificate.
	client.Transport.(*http.Transport).TLSClientConfig.ServerName = "other.test"
	if res, err := client.Get("https://other.test/api/health"); err == nil {
		res.Body.Close()
		t.Fatal("a handshake for a host not in web.tls.acmeHosts succeeded")
	}
}

func freeAddress(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
