package delivery

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// SMS posts each message to an HTTP SMS gateway. Template is the request
// body with {phone} and {message} placeholders, filled in escaped for
// ContentType (JSON string escaping, form URL encoding, or as is).
type SMS struct {
	URL           string
	Authorization string // sent as the Authorization header when set
	Template      string
	ContentType   string
	Client        *http.Client // http.DefaultClient when nil
}

// DefaultSMSTemplate is the body when no template is configured.
const DefaultSMSTemplate = `{"to":"{phone}","message":"{message}"}`

// Send posts one SMS; any answer but 2xx is an error.
func (s SMS) Send(ctx context.Context, to, _, text string) error {
	tmpl, ctype := s.Template, s.ContentType
	if tmpl == "" {
		tmpl = DefaultSMSTemplate
	}
	if ctype == "" {
		ctype = "application/json"
	}
	body := strings.NewReplacer("{phone}", escape(ctype, to), "{message}", escape(ctype, text)).Replace(tmpl)
	return post(ctx, s.Client, "sms gateway", s.URL, ctype, s.Authorization, []byte(body))
}

// escape makes v safe inside a body of the content type.
func escape(ctype, v string) string {
	switch {
	case strings.Contains(ctype, "json"):
		b, _ := json.Marshal(v) // a string always marshals
		return string(b[1 : len(b)-1])
	case strings.Contains(ctype, "x-www-form-urlencoded"):
		return url.QueryEscape(v)
	}
	return v
}
