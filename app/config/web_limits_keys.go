package config

import "time"

// WebLimits bound what one HTTP client may cost the server: time and
// request body.
type WebLimits struct {
	ReadTimeout  time.Duration
	MinBodyRate  int
	WriteTimeout time.Duration
	IdleTimeout  time.Duration
	MaxBodySize  int
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
	}
}
