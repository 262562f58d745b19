package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Parsers take a value as YAML decodes it (string, bool, int, ...) or as the
// environment gives it (always a string) and validate it.

func parseString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%v is not a string", v)
	}
	return s, nil
}

func parseNonEmpty(v any) (string, error) {
	s, err := parseString(v)
	if err == nil && strings.TrimSpace(s) == "" {
		err = fmt.Errorf("must not be empty")
	}
	return s, err
}

func parseBool(v any) (bool, error) {
	switch b := v.(type) {
	case bool:
		return b, nil
	case string:
		if parsed, err := strconv.ParseBool(strings.TrimSpace(b)); err == nil {
			return parsed, nil
		}
	}
	return false, fmt.Errorf("%q is not true or false", fmt.Sprint(v))
}

func parseInt(v any) (int, error) {
	switch n := v.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case uint64:
		if n <= uint64(int(^uint(0)>>1)) {
			return int(n), nil
		}
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is not a whole number", fmt.Sprint(v))
}

func parseIntIn(lo, hi int) func(any) (int, error) {
	return func(v any) (int, error) {
		n, err := parseInt(v)
		if err == nil && (n < lo || n > hi) {
			err = fmt.Errorf("%d is out of range %d..%d", n, lo, hi)
		}
		return n, err
	}
}

func parsePort(v any) (int, error) {
	n, err := parseInt(v)
	if err == nil && (n < 0 || n > 65535) {
		err = fmt.Errorf("%d is not a port (0..65535; 0 picks a free one)", n)
	}
	return n, err
}

func parseDurationAtLeast(lo time.Duration) func(any) (time.Duration, error) {
	return func(v any) (time.Duration, error) {
		s, ok := v.(string)
		if !ok {
			return 0, fmt.Errorf("%v is not a duration with a unit (e.g. 15m, 720h)", v)
		}
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (e.g. 15m, 720h)", s)
		}
		if d < lo {
			return 0, fmt.Errorf("%s is shorter than %s", d, lo)
		}
		return d, nil
	}
}

func parseLevel(v any) (slog.Level, error) {
	s, _ := v.(string)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("%q is not one of debug, info, warn, error", fmt.Sprint(v))
}

func parseOneOf(allowed ...string) func(any) (string, error) {
	return func(v any) (string, error) {
		s, _ := v.(string)
		s = strings.ToLower(strings.TrimSpace(s))
		if !slices.Contains(allowed, s) {
			return "", fmt.Errorf("%q is not one of %s", fmt.Sprint(v), strings.Join(allowed, ", "))
		}
		return s, nil
	}
}

// parseAddress accepts host:port with a numeric port; port 0 asks the
// kernel for a free one (tests).
func parseAddress(v any) (string, error) {
	s, err := parseString(v)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port (e.g. \":8082\" or \"127.0.0.1:8082\")", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%q has no valid port (0..65535)", s)
	}
	return s, nil
}

func parseEmail(v any) (string, error) {
	s, err := parseString(v)
	if err != nil || s == "" {
		return s, err
	}
	s = strings.TrimSpace(s)
	if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
		return "", fmt.Errorf("%q is not a plain e-mail address", s)
	}
	return s, nil
}

// addressPort is the numeric port of a host:port already validated by
// parseAddress.
func addressPort(addr string) int {
	_, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	return n
}

// parseList takes a comma-separated string (environment, YAML) or a YAML
// list, and checks each trimmed, non-empty item with each.
func parseList(v any, what string, each func(string) (string, error)) ([]string, error) {
	var items []string
	switch x := v.(type) {
	case string:
		items = strings.Split(x, ",")
	case []any:
		for _, item := range x {
			s, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("%v is not a %s", item, what)
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Errorf("%v is not a list of %ss", v, what)
	}
	out := []string{}
	for _, item := range items {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		s, err := each(item)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// parseProxies takes IP addresses and CIDR ranges. An address is kept in
// its canonical form (::1, not 0:0:0:0:0:0:0:1), which is how Fiber
// compares it with the peer's.
func parseProxies(v any) ([]string, error) {
	return parseList(v, "proxy address", func(item string) (string, error) {
		if ip := net.ParseIP(item); ip != nil {
			return ip.String(), nil
		}
		if _, _, err := net.ParseCIDR(item); err != nil {
			return "", fmt.Errorf("%q is not an IP address or CIDR range", item)
		}
		return item, nil
	})
}

// parseProxyHeader takes the name of a header holding one address (or a
// list whose first entry is the client). Forwarded's for= syntax is not
// read.
func parseProxyHeader(v any) (string, error) {
	s, err := parseNonEmpty(v)
	if err == nil && strings.EqualFold(s, "Forwarded") {
		err = fmt.Errorf("Forwarded is not supported; use a header with a plain address such as X-Real-IP")
	}
	return s, err
}
