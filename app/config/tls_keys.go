package config

import (
	"crypto/tls"
	"fmt"
)

// TLS makes the web port serve HTTPS itself, with a certificate and key
// from files (a certificate another tool renews, such as certbot's),
// and optionally answers plain HTTP on a second address with a redirect.
type TLS struct {
	CertFile, KeyFile string
	RedirectAddress   string
}

// Enabled reports whether the web port serves HTTPS.
func (t TLS) Enabled() bool { return t.CertFile != "" }

func tlsKeys() []Key {
	return []Key{
		field("web.tls.certFile", "", "PEM certificate (with its chain) for HTTPS on web.address; empty: plain HTTP (TLS ended by a reverse proxy). Re-read when the file changes.",
			parseString, func(c *Config) *string { return &c.Web.TLS.CertFile }, asIs[string]),
		field("web.tls.keyFile", "", "PEM private key of web.tls.certFile.",
			parseString, func(c *Config) *string { return &c.Web.TLS.KeyFile }, asIs[string]),
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
