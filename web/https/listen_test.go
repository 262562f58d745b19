package https

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/web/https/httpstest"
)

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
