package accounts

import (
	"context"
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
)

// OTP purposes (the spec's closed set of OTP types).
const (
	PurposeRegistration = "registration"
	PurposeReset        = "reset"
	PurposeDemo         = "demo_auth"
	PurposeUpdateEmail  = "update_email"
	PurposeUpdatePhone  = "update_phone"
)

// MessageSender delivers one short text (an OTP) to an address: an e-mail
// address or a phone number. Adapters live in app/delivery.
type MessageSender interface {
	Send(ctx context.Context, to, subject, text string) error
}

// Options tune account access (spec A and H). Zero values get the
// defaults documented in docs/accounts.md.
type Options struct {
	// Mail sends OTPs to e-mail addresses and SMS to phone numbers; a nil
	// sender writes the message to the server log instead (development).
	Mail MessageSender
	SMS  MessageSender
	// SendTimeout bounds one delivery, so a hung mail server cannot hold
	// a request (default 10 s).
	SendTimeout time.Duration
	// OTPTTL is an OTP's lifetime (default 10 minutes, the spec's).
	OTPTTL time.Duration
	// TokenTTL is the lifetime of the token A1 returns (default 10 minutes).
	TokenTTL time.Duration
	// OTPMaxTries wrong answers end an OTP (default 5).
	OTPMaxTries int
	// ResendCooldown is the least time between two OTPs for one purpose
	// and identifier (default 60 s).
	ResendCooldown time.Duration
	// OTPSends bounds the requests that send an OTP (A3, A5, A7, H1) per
	// client address and per identifier or user, so nobody can flood a
	// phone or run up the SMS bill (default 20 per IP and 5 per account
	// an hour).
	OTPSends throttle.Options
	// DemoTTL is how long a demo account lives (default 7 days).
	DemoTTL time.Duration
	// Maintenance forces maintenance mode on (config server.maintenance),
	// whatever the stored switch says.
	Maintenance bool
	// PublicURL is the address users open fleetd at (config web.url), for
	// links in mails; without it no reset link is sent.
	PublicURL string
}

func (o *Options) defaults() {
	model.SetDefault(&o.SendTimeout, 10*time.Second)
	model.SetDefault(&o.OTPTTL, 10*time.Minute)
	model.SetDefault(&o.TokenTTL, 10*time.Minute)
	model.SetDefault(&o.ResendCooldown, time.Minute)
	model.SetDefault(&o.DemoTTL, 7*24*time.Hour)
	model.SetDefault(&o.OTPMaxTries, 5)
	o.OTPSends.Defaults(throttle.Options{MaxPerIP: 20, MaxPerAccount: 5, Window: time.Hour})
}

// logSender is the development fallback: the message goes to the server
// log, clearly marked, so an operator without mail or SMS can still
// complete a registration.
type logSender struct {
	log     *slog.Logger
	channel string
}

func (s logSender) Send(_ context.Context, to, subject, text string) error {
	s.log.Warn("OTP NOT DELIVERED ("+s.channel+" not configured): message written to this log instead",
		"to", to, "subject", subject, "text", text)
	return nil
}

// initAccounts applies the account defaults.
func (acc *Service) initAccounts() {
	acc.opts.defaults()
	acc.otpSends = throttle.New(acc.opts.OTPSends, acc.now, errTooManyOTPs)
	if acc.opts.Mail == nil {
		acc.opts.Mail = logSender{log: acc.log, channel: "mail.smtp"}
	}
	if acc.opts.SMS == nil {
		acc.opts.SMS = logSender{log: acc.log, channel: "sms.http"}
	}
}
