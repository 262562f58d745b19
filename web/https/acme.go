package https

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// ACMEOptions obtain and renew certificates automatically from an ACME
// certificate authority (Let's Encrypt by default) for Hosts.
type ACMEOptions struct {
	Hosts     []string
	Email     string // where the authority may write about the account
	Directory string // the authority's directory URL
	// Roots, when set, is a PEM file of the CAs to trust for the
	// authority's own HTTPS (a private ACME server); empty: the system's.
	Roots string
	Cache string // directory keeping the account key and certificates
}

// ACME is a certificate source that asks an ACME authority. The
// challenge is answered on the HTTPS port (TLS-ALPN-01) and, when plain
// HTTP is redirected (HTTPHandler), on port 80 (HTTP-01).
type ACME struct {
	m *autocert.Manager
}

// NewACME prepares the certificate source; certificates are obtained on
// the first handshake naming a host, then renewed 30 days before expiry.
func NewACME(o ACMEOptions) (*ACME, error) {
	if len(o.Hosts) == 0 {
		return nil, errors.New("web.tls.acmeHosts: no host to obtain a certificate for")
	}
	client := &acme.Client{DirectoryURL: o.Directory}
	if o.Roots != "" {
		pem, err := os.ReadFile(o.Roots)
		if err != nil {
			return nil, fmt.Errorf("web.tls.acmeRoots: %w", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("web.tls.acmeRoots: %s holds no PEM certificate", o.Roots)
		}
		client.HTTPClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	}
	return &ACME{m: &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(o.Cache),
		HostPolicy: autocert.HostWhitelist(o.Hosts...),
		Email:      o.Email,
		Client:     client,
	}}, nil
}

// Config is the server's TLS configuration, TLS 1.2 and later, with the
// ACME challenge protocol beside HTTP/1.1.
func (a *ACME) Config() *tls.Config {
	c := a.m.TLSConfig()
	c.MinVersion = tls.VersionTLS12
	c.NextProtos = []string{"http/1.1", acme.ALPNProto}
	return c
}

// HTTPHandler answers the authority's HTTP-01 challenges and passes
// everything else to h.
func (a *ACME) HTTPHandler(h http.Handler) http.Handler { return a.m.HTTPHandler(h) }
