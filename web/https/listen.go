package https

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
)

// Options say where the certificates come from (web.tls): ACME.Hosts set
// asks an ACME authority, else CertFile and KeyFile are read; with neither
// the web port serves plain HTTP (TLS ended by a reverse proxy).
type Options struct {
	CertFile, KeyFile string
	ACME              ACMEOptions
	// RedirectAddress, when set, is where plain HTTP is answered with a
	// redirect to HTTPS.
	RedirectAddress string
}

// Redirecting is the plain HTTP redirect running beside HTTPS; nil is
// none.
type Redirecting struct {
	addr net.Addr
	srv  *http.Server
}

// Addr is where the redirect listens; nil without one.
func (r *Redirecting) Addr() net.Addr {
	if r == nil {
		return nil
	}
	return r.addr
}

// Close stops the redirect.
func (r *Redirecting) Close() error {
	if r == nil {
		return nil
	}
	return r.srv.Close()
}

// Listen wraps ln in TLS with the certificates o names, or returns it as
// it is without any. With o.RedirectAddress it also answers plain HTTP
// there with a redirect to ln's port (and the ACME challenges); the caller
// closes the returned redirect.
func Listen(ln net.Listener, o Options, log *slog.Logger) (net.Listener, *Redirecting, error) {
	var src Source
	var err error
	switch {
	case o.CertFile == "" && len(o.ACME.Hosts) == 0:
		return ln, nil, nil
	case len(o.ACME.Hosts) > 0:
		src, err = NewACME(o.ACME)
	default:
		src, err = Load(o.CertFile, o.KeyFile, log)
	}
	if err != nil {
		return nil, nil, err
	}
	if o.RedirectAddress == "" {
		return tls.NewListener(ln, src.Config()), nil, nil
	}
	rl, err := net.Listen("tcp", o.RedirectAddress)
	if err != nil {
		return nil, nil, fmt.Errorf("web.tls.redirectAddress: %w", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return tls.NewListener(ln, src.Config()), &Redirecting{addr: rl.Addr(), srv: Redirect(rl, port, src)}, nil
}
