package fleet

import (
	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// DeviceCounts is how many devices each of users reaches: for every user
// the total Devices.Page answers for q.UserID, under the same rules (an
// administrator, a manager or the user themselves, who must see the user),
// but in one read of the store for the whole list.
func (s *Service) DeviceCounts(actor *model.User, users []int64) (map[int64]int, error) {
	counts := make(map[int64]int, len(users))
	err := s.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		reach, err := a.DeviceReach()
		if err != nil {
			return err
		}
		for _, id := range users {
			if err := mayListFor(a, id); err != nil {
				return err
			}
			if counts[id], err = reach.Count(id); err != nil {
				return err
			}
		}
		return nil
	})
	return counts, err
}
