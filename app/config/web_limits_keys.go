package config

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// WebLimits bound what one HTTP client may cost the server (time, request
// body) and name the other sites whose pages may use a user's session.
type WebLimits struct {
	ReadTimeout    time.Duration
	MinBodyRate    int
	WriteTimeout   time.Duration
	IdleTimeout    time.Duration
	MaxBodySize    int
	MaxConnections int
	MaxConnsPerIP  int
	AllowedOrigins []string
}

// webLimitsKeys harden the HTTP server for the open internet.
func webLimitsKeys() []Key {
	return []Key{
		field("web.readTimeout", 10*time.Second, "Time a client has to send a request's line and headers, and again for the start of its body (408 or closed after).",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Web.ReadTimeout }, formatDuration),
		field("web.minBodyRate", 1024, "Bytes per second a request body must average after web.readTimeout (an upload of 10 MB may take 10,000 s); a slower one is cut off with 408.",
			parseIntIn(1, 1<<30), func(c *Config) *int { return &c.Web.MinBodyRate }, asIs[int]),
		field("web.writeTimeout", 30*time.Second, "Time to send a response; downloads that stream (position history, files) get it anew for every chunk the client takes.",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Web.WriteTimeout }, formatDuration),
		field("web.idleTimeout", time.Minute, "A keep-alive connection without a next request for this long is closed.",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Web.IdleTimeout }, formatDuration),
		field("web.maxBodySize", 1<<20, "Largest request body in bytes other than an upload (JSON, forms); uploads take files.maxSize.",
			parseIntIn(1024, 1<<30), func(c *Config) *int { return &c.Web.MaxBodySize }, asIs[int]),
		field("web.maxConnections", 10000, "HTTP connections open at once; past it a new one is answered 503 and closed (each costs about 20 KB while it lasts).",
			parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Web.MaxConnections }, asIs[int]),
		field("web.maxConnectionsPerIp", 1000, "HTTP connections open at once from one address (an IPv6 one by its /64); past it a new one is answered 429 and closed. Not applied when web.trustedProxies is set: the proxy is then every client's address.",
			parseIntIn(1, 1_000_000), func(c *Config) *int { return &c.Web.MaxConnsPerIP }, asIs[int]),
		field("web.allowedOrigins", []string{}, "Other sites (origins like https://traccar.example.com, comma-separated) whose pages may send requests with a user's session cookie; the server's own host is always allowed.",
			parseOrigins, func(c *Config) *[]string { return &c.Web.AllowedOrigins }, joinComma),
	}
}

// parseOrigins takes origins as browsers send them, scheme://host[:port],
// and keeps them lower-cased.
func parseOrigins(v any) ([]string, error) {
	return parseList(v, "origin", func(item string) (string, error) {
		u, err := url.Parse(item)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return "", fmt.Errorf("%q is not an origin like https://traccar.example.com", item)
		}
		return strings.ToLower(u.Scheme + "://" + u.Host), nil
	})
}
