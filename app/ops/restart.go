package ops

import (
	"sync"

	"github.com/fleetd/fleetd/app/model"
)

// restart is the one request to restart the server a run can take.
type restart struct {
	once *sync.Once
	ch   chan struct{}
}

func newRestart() restart { return restart{once: new(sync.Once), ch: make(chan struct{})} }

// RequestRestart asks fleetd serve to stop as on SIGTERM (listeners
// closed, every acknowledged position committed, the store closed) and
// start again from its executable: Traccar's POST /api/server/reboot, to
// take a changed configuration file or an upgraded binary. Administrators
// only.
func (s *Service) RequestRestart(actor *model.User) error {
	if !actor.Administrator {
		return model.Forbidden("Only administrators may restart the server")
	}
	s.restart.once.Do(func() { close(s.restart.ch) })
	return nil
}

// RestartRequested is closed once a restart is requested.
func (s *Service) RestartRequested() <-chan struct{} { return s.restart.ch }
