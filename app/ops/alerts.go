package ops

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
func (ops *Service) raise(key, subject, text string) {
	ops.alerts.mu.Lock()
	begins := !ops.alerts.active[key]
	if ops.alerts.active == nil {
		ops.alerts.active = map[string]bool{}
	}
	ops.alerts.active[key] = true
	ops.alerts.mu.Unlock()
	if begins {
		ops.mailAdmins(subject, text)
	}
}

// settle ends condition key: the next time it begins, it is mailed again.
func (ops *Service) settle(key string) {
	ops.alerts.mu.Lock()
	delete(ops.alerts.active, key)
	ops.alerts.mu.Unlock()
}

// WatchSpace checks the data directory's free space every interval until
// ctx ends and mails administrators when it falls below the threshold.
func (ops *Service) WatchSpace(ctx context.Context, every time.Duration) {
	for {
		ops.checkSpace()
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

func (ops *Service) checkSpace() {
	s, err := ops.Space()
	switch {
	case err != nil:
		return
	case s.Low:
		ops.raise(alertLowSpace, "fleetd: the data disk is nearly full",
			fmt.Sprintf("The disk holding fleetd's data has %d MB free of %d MB. Once it is full, positions are not stored "+
				"(devices keep and resend them) and uploads are refused. Make room, or set retention.positions.",
				s.Free>>20, s.Total>>20))
	default:
		ops.settle(alertLowSpace)
	}
}
