// Package delivery holds the adapters that carry fleetd's messages out:
// e-mail over SMTP, SMS over an HTTP gateway (both accounts.MessageSender) and
// push notifications over Firebase Cloud Messaging's HTTP v1 API
// (notify.PushSender). Configured builds the ones the config sets up.
package delivery
