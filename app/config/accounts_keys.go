package config

import (
	"fmt"
	"net/url"
)

// Server holds operator switches of the running server.
type Server struct {
	// Maintenance answers account access (login, registration, resets)
	// with "Server not running!" whatever the stored switch says.
	Maintenance bool
}

// Mail is the SMTP server OTP e-mails go through; no host: to the log.
type Mail struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
	StartTLS bool
}

// SMS is the HTTP gateway OTP text messages go through; no URL: to the log.
type SMS struct {
	URL           string
	Authorization string
	Template      string
	ContentType   string
}

// Push is Firebase Cloud Messaging (HTTP v1); no credentials file: off.
type Push struct {
	CredentialsFile string
	ProjectID       string
	Endpoint        string
	TokenURL        string
}

// accountKeys configure account access, OTP delivery and push (spec A, H, K).
func accountKeys() []Key {
	return []Key{
		field("server.maintenance", false, "Maintenance mode: login, registration and resets answer \"Server not running!\" (also: fleetd maintenance on, off or status).",
			parseBool, func(c *Config) *bool { return &c.Server.Maintenance }, asIs[bool]),
		field("mail.smtp.host", "", "SMTP server for OTP e-mails (empty: codes are written to the log).",
			parseString, func(c *Config) *string { return &c.Mail.Host }, asIs[string]),
		field("mail.smtp.port", 587, "SMTP port; 465 means implicit TLS.",
			parsePort, func(c *Config) *int { return &c.Mail.Port }, asIs[int]),
		field("mail.smtp.username", "", "SMTP user (empty: no authentication).",
			parseString, func(c *Config) *string { return &c.Mail.Username }, asIs[string]),
		secret(field("mail.smtp.password", "", "SMTP password.",
			parseString, func(c *Config) *string { return &c.Mail.Password }, asIs[string])),
		field("mail.smtp.from", "", "Sender address of OTP e-mails (required with mail.smtp.host).",
			parseEmail, func(c *Config) *string { return &c.Mail.From }, asIs[string]),
		field("mail.smtp.starttls", true, "Require STARTTLS; false uses it only when the server offers it.",
			parseBool, func(c *Config) *bool { return &c.Mail.StartTLS }, asIs[bool]),
		field("sms.http.url", "", "SMS gateway URL OTP texts are POSTed to (empty: codes are written to the log).",
			parseURLOrEmpty, func(c *Config) *string { return &c.SMS.URL }, asIs[string]),
		secret(field("sms.http.authorization", "", "Authorization header sent to the SMS gateway (e.g. Bearer KEY).",
			parseString, func(c *Config) *string { return &c.SMS.Authorization }, asIs[string])),
		field("sms.http.template", `{"to":"{phone}","message":"{message}"}`, "Request body; {phone} and {message} are filled in, escaped for the content type.",
			parseNonEmpty, func(c *Config) *string { return &c.SMS.Template }, asIs[string]),
		field("sms.http.contentType", "application/json", "Content type of the SMS request body.",
			parseNonEmpty, func(c *Config) *string { return &c.SMS.ContentType }, asIs[string]),
		field("push.fcm.credentialsFile", "", "Google service-account key file (JSON) for Firebase Cloud Messaging (empty: no push).",
			parseString, func(c *Config) *string { return &c.Push.CredentialsFile }, asIs[string]),
		field("push.fcm.projectId", "", "Firebase project id (empty: project_id of the key file).",
			parseString, func(c *Config) *string { return &c.Push.ProjectID }, asIs[string]),
		field("push.fcm.endpoint", "https://fcm.googleapis.com", "FCM API root messages are POSTed to (/v1/projects/{projectId}/messages:send).",
			parseURLOrEmpty, func(c *Config) *string { return &c.Push.Endpoint }, asIs[string]),
		field("push.fcm.tokenUrl", "", "OAuth2 token endpoint (empty: token_uri of the key file).",
			parseURLOrEmpty, func(c *Config) *string { return &c.Push.TokenURL }, asIs[string]),
	}
}

// parseURLOrEmpty accepts "" or an absolute http(s) URL.
func parseURLOrEmpty(v any) (string, error) {
	s, err := parseString(v)
	if err != nil || s == "" {
		return s, err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", s)
	}
	return s, nil
}
