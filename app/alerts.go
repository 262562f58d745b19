package app

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// alerts remembers which conditions administrators have been told about:
// each is mailed when it begins, not again until it has ended, so a disk
// that stays full sends one message, not one a minute.
type alerts struct {
	mu     sync.Mutex
	active map[string]bool
}

// Alert keys.
const (
	alertLowSpace     = "lowSpace"
	alertBackupFailed = "backupFailed"
)

// raise mails every administrator when condition key begins.
func (c *Core) raise(key, subject, text string) {
	c.alerts.mu.Lock()
	begins := !c.alerts.active[key]
	if c.alerts.active == nil {
		c.alerts.active = map[string]bool{}
	}
	c.alerts.active[key] = true
	c.alerts.mu.Unlock()
	if begins {
		c.Accounts.MailAdmins(subject, text)
	}
}

// settle ends condition key: the next time it begins, it is mailed again.
func (c *Core) settle(key string) {
	c.alerts.mu.Lock()
	delete(c.alerts.active, key)
	c.alerts.mu.Unlock()
}

// WatchSpace checks the data directory's free space every interval until
// ctx ends and mails administrators when it falls below the threshold.
func (c *Core) WatchSpace(ctx context.Context, every time.Duration) {
	for {
		c.checkSpace()
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

func (c *Core) checkSpace() {
	s, err := c.Space()
	switch {
	case err != nil:
		return
	case s.Low:
		c.raise(alertLowSpace, "fleetd: the data disk is nearly full",
			fmt.Sprintf("The disk holding fleetd's data has %d MB free of %d MB. Once it is full, positions are not stored "+
				"(devices keep and resend them) and uploads are refused. Make room, or set retention.positions.",
				s.Free>>20, s.Total>>20))
	default:
		c.settle(alertLowSpace)
	}
}
