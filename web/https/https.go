// Package https lets fleetd serve HTTPS itself, without a reverse proxy:
// a certificate and key from files, re-read when they change (a renewal by
// certbot or another tool needs no restart), and a plain HTTP listener
// that sends browsers to HTTPS; Listen sets them up on the web listener.
package https

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fleetd/fleetd/web/httpx"
)

// recheck is how often a handshake may look at the files for a renewal.
const recheck = 10 * time.Second

// Certificate is a key pair read from files and re-read when they change.
type Certificate struct {
	certFile, keyFile string
	log               *slog.Logger
	now               func() time.Time

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string // the files' sizes and modification times when read
	checked time.Time
}

// Load reads the key pair; it fails when the files are not a valid pair.
func Load(certFile, keyFile string, log *slog.Logger) (*Certificate, error) {
	c := &Certificate{certFile: certFile, keyFile: keyFile, log: log, now: time.Now}
	stamp, err := c.filesStamp()
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("web.tls: %w", err)
	}
	c.cert, c.stamp, c.checked = &cert, stamp, c.now()
	return c, nil
}

// Config is the server's TLS configuration: TLS 1.2 and later, HTTP/1.1
// (the server speaks no HTTP/2).
func (c *Certificate) Config() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"},
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.current(), nil }}
}

// current is the certificate to serve, re-read first when the files
// changed since they were last looked at (at most every recheck). A pair
// that does not load (a renewal written halfway) keeps the one in use.
func (c *Certificate) current() *tls.Certificate {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.now(); now.Sub(c.checked) >= recheck {
		c.checked = now
		if stamp, err := c.filesStamp(); err == nil && stamp != c.stamp {
			cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
			if err != nil {
				c.log.Warn("HTTPS certificate changed but does not load; serving the previous one", "err", err)
			} else {
				c.cert, c.stamp = &cert, stamp
				c.log.Info("HTTPS certificate re-read", "file", c.certFile)
			}
		}
	}
	return c.cert
}

func (c *Certificate) filesStamp() (string, error) {
	var b strings.Builder
	for _, name := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return "", fmt.Errorf("web.tls: %w", err)
		}
		fmt.Fprintf(&b, "%d/%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String(), nil
}

// Source is where the HTTPS certificates come from: files
// (Certificate) or an ACME authority (ACME).
type Source interface {
	Config() *tls.Config
	// HTTPHandler wraps the plain HTTP handler, for what the source must
	// answer over HTTP (ACME's HTTP-01 challenge).
	HTTPHandler(h http.Handler) http.Handler
}

// Redirect answers plain HTTP on ln with a permanent redirect to the same
// host and path over HTTPS on httpsPort ("443" is left out of the URL),
// after what src answers there. It is bounded like the main server:
// headers within 10 s, 8 KiB of them.
func Redirect(ln net.Listener, httpsPort string, src Source) *http.Server {
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second,
		IdleTimeout: time.Minute, MaxHeaderBytes: 8 << 10,
		Handler: src.HTTPHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, err := hostOf(r.Host)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if httpsPort != "443" {
				host = net.JoinHostPort(host, httpsPort)
			} else if strings.Contains(host, ":") { // an IPv6 address
				host = "[" + host + "]"
			}
			w.Header().Set("Connection", "close")
			http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
		})),
	}
	go srv.Serve(ln)
	return srv
}

// hostOf is the request's host name without its port, refused when it
// could make the redirect point at another path or user.
func hostOf(hostport string) (string, error) {
	host := httpx.Hostname(hostport)
	if host == "" || strings.ContainsAny(host, "/\\@?#% ") {
		return "", errors.New("the request names no valid host")
	}
	return host, nil
}

// HTTPHandler is h: certificates from files need no answer over HTTP.
func (c *Certificate) HTTPHandler(h http.Handler) http.Handler { return h }

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
