package config

import (
	"crypto/tls"
	"fmt"
	"net"
	"strings"
)

// TLS makes the web port serve HTTPS itself, with a certificate and key
// from files (a certificate another tool renews, such as certbot's) or
// obtained automatically over ACME, and optionally answers plain HTTP on
// a second address with a redirect.
type TLS struct {
	CertFile, KeyFile string
	ACMEHosts         []string
	ACMEEmail         string
	ACMEDirectory     string
	ACMERoots         string
	RedirectAddress   string
}

// Enabled reports whether the web port serves HTTPS.
func (t TLS) Enabled() bool { return t.CertFile != "" || len(t.ACMEHosts) > 0 }

// LetsEncrypt is the ACME directory certificates come from by default.
const LetsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

func tlsKeys() []Key {
	return []Key{
		field("web.tls.certFile", "", "PEM certificate (with its chain) for HTTPS on web.address; empty: plain HTTP (TLS ended by a reverse proxy). Re-read when the file changes.",
			parseString, func(c *Config) *string { return &c.Web.TLS.CertFile }, asIs[string]),
		field("web.tls.keyFile", "", "PEM private key of web.tls.certFile.",
			parseString, func(c *Config) *string { return &c.Web.TLS.KeyFile }, asIs[string]),
		field("web.tls.acmeHosts", []string{}, "Host names (comma-separated) to obtain HTTPS certificates for automatically over ACME, instead of web.tls.certFile; the authority must reach this server on port 443 (web.address) or 80 (web.tls.redirectAddress).",
			parseHostNames, func(c *Config) *[]string { return &c.Web.TLS.ACMEHosts }, joinComma),
		field("web.tls.acmeEmail", "", "E-mail address the ACME authority may write to about the certificates (expiry, problems); optional.",
			parseString, func(c *Config) *string { return &c.Web.TLS.ACMEEmail }, asIs[string]),
		field("web.tls.acmeDirectory", LetsEncrypt, "Directory URL of the ACME authority (Let's Encrypt; its staging directory for trials, or a private one).",
			parseURLOrEmpty, func(c *Config) *string { return &c.Web.TLS.ACMEDirectory }, asIs[string]),
		field("web.tls.acmeRoots", "", "PEM file of the CAs to trust for a private ACME authority's own HTTPS; empty: the system's.",
			parseString, func(c *Config) *string { return &c.Web.TLS.ACMERoots }, asIs[string]),
		field("web.tls.redirectAddress", "", "With HTTPS: an address (e.g. \":80\") answering plain HTTP with a redirect to HTTPS; empty: none.",
			parseOptionalAddress, func(c *Config) *string { return &c.Web.TLS.RedirectAddress }, asIs[string]),
	}
}

func parseOptionalAddress(v any) (string, error) {
	if s, err := parseString(v); err != nil || s == "" {
		return s, err
	}
	return parseAddress(v)
}

// tlsProblems checks that HTTPS is configured whole: both files, a key
// that fits the certificate, and a redirect only where there is HTTPS.
func (c *Config) tlsProblems() []string {
	t := c.Web.TLS
	if len(t.ACMEHosts) > 0 {
		if t.CertFile != "" || t.KeyFile != "" {
			return []string{"web.tls.acmeHosts: set with web.tls.certFile: use one or the other"}
		}
		return nil
	}
	switch {
	case t.CertFile == "" && t.KeyFile == "":
		if t.RedirectAddress != "" {
			return []string{"web.tls.redirectAddress: set without web.tls.certFile: there is no HTTPS to redirect to"}
		}
		return nil
	case t.CertFile == "" || t.KeyFile == "":
		return []string{"web.tls.certFile, web.tls.keyFile: give both or neither"}
	}
	if _, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile); err != nil {
		return []string{fmt.Sprintf("web.tls.certFile, web.tls.keyFile: %v", err)}
	}
	return nil
}

// parseHostNames takes DNS names a certificate can be issued for.
func parseHostNames(v any) ([]string, error) {
	return parseList(v, "host name", func(item string) (string, error) {
		h := strings.ToLower(strings.TrimSuffix(item, "."))
		if h == "" || len(h) > 253 || net.ParseIP(h) != nil || strings.ContainsAny(h, "/:@ *") || !strings.Contains(h, ".") {
			return "", fmt.Errorf("%q is not a host name like fleet.example.com", item)
		}
		return h, nil
	})
}
