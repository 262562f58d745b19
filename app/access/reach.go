package access

import "github.com/fleetd/fleetd/app/model"

// DeviceReach answers, for one user after another, which devices each
// reaches (straight, or through a group and its sub-groups) as VisibleTo
// does, having read the groups and the devices once for all of them.
type DeviceReach struct {
	a        Guard
	children map[int64][]int64 // group: its sub-groups
	grouped  map[int64][]int64 // group: its devices
	exists   map[int64]bool
}

// DeviceReach reads the groups and devices of the guard's transaction.
func (a Guard) DeviceReach() (*DeviceReach, error) {
	children, err := a.groupChildren()
	if err != nil {
		return nil, err
	}
	r := &DeviceReach{a: a, children: children, grouped: map[int64][]int64{}, exists: map[int64]bool{}}
	err = a.Tx.Devices().List(func(d *model.Device) bool {
		r.exists[d.ID] = true
		if d.GroupID != 0 {
			r.grouped[d.GroupID] = append(r.grouped[d.GroupID], d.ID)
		}
		return true
	})
	return r, err
}

// Count is how many existing devices user reaches (a link to a deleted
// device counts for nothing, as in a list).
func (r *DeviceReach) Count(user int64) (int, error) {
	users := []int64{user}
	set, err := r.a.linkedToUsers(users, model.KindDevice)
	if err != nil {
		return 0, err
	}
	groups, err := r.a.linkedToUsers(users, model.KindGroup)
	if err != nil {
		return 0, err
	}
	closeOver(groups, r.children)
	for g := range groups {
		for _, id := range r.grouped[g] {
			set[id] = true
		}
	}
	n := 0
	for id := range set {
		if r.exists[id] {
			n++
		}
	}
	return n, nil
}
