// Package ops watches the server's own health for its operator: the free
// space of the data directory, the outcome of scheduled backups and the
// store's outlook, and the alerts mailed to administrators when one goes
// wrong; and it passes an administrator's request to restart the server.
package ops

import (
	"time"
)

// Service is the watcher.
type Service struct {
	opts       Options
	now        func() time.Time
	mailAdmins func(subject, text string)
	backups    backupStatus // backup_status.go
	alerts     alerts       // alerts.go
	restart    restart      // restart.go
}

// New builds the watcher; mailAdmins sends an alert to every
// administrator.
func New(opts Options, mailAdmins func(subject, text string), now func() time.Time) *Service {
	return &Service{opts: opts, now: now, mailAdmins: mailAdmins, restart: newRestart()}
}
