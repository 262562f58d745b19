package access

import (
	"errors"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// Guard answers "may this actor see/change that object" inside one
// transaction. It follows Traccar's model: objects are linked to users by
// permissions; devices are also reachable through a linked group and its
// sub-groups; managers reach what their managed users reach.
type Guard struct {
	Tx    model.Tx
	Actor *model.User
}

// OwnerIDs is the actor plus, for a manager, the users it manages (Traccar's
// user-to-managed-user permission): whose links the actor reaches.
func (a Guard) OwnerIDs() ([]int64, error) {
	ids := []int64{a.Actor.ID}
	if a.Actor.Manager() {
		managed, err := a.Tx.Linked(model.KindUser, a.Actor.ID, model.KindManagedUser)
		if err != nil {
			return nil, err
		}
		ids = append(ids, managed...)
	}
	return ids, nil
}

// linkedToUsers collects the ids of kind linked to any of the users.
func (a Guard) linkedToUsers(users []int64, kind string) (map[int64]bool, error) {
	set := map[int64]bool{}
	for _, u := range users {
		ids, err := a.Tx.Linked(model.KindUser, u, kind)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			set[id] = true
		}
	}
	return set, nil
}

// GroupClosure adds every descendant group of the groups in set.
func (a Guard) GroupClosure(set map[int64]bool) error {
	children, err := a.groupChildren()
	if err == nil {
		closeOver(set, children)
	}
	return err
}

// groupChildren maps every group to its sub-groups.
func (a Guard) groupChildren() (map[int64][]int64, error) {
	children := map[int64][]int64{}
	err := a.Tx.Groups().List(func(g *model.Group) bool {
		children[g.GroupID] = append(children[g.GroupID], g.ID)
		return true
	})
	return children, err
}

// closeOver adds to set every descendant, through children, of its groups.
func closeOver(set map[int64]bool, children map[int64][]int64) {
	queue := make([]int64, 0, len(set))
	for id := range set {
		queue = append(queue, id)
	}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for _, child := range children[id] {
			if !set[child] {
				set[child] = true
				queue = append(queue, child)
			}
		}
	}
}

// visible returns the ids of kind the given users reach; for devices and
// groups this includes group inheritance.
func (a Guard) VisibleTo(users []int64, kind string) (map[int64]bool, error) {
	switch kind {
	case model.KindGroup:
		set, err := a.linkedToUsers(users, model.KindGroup)
		if err != nil {
			return nil, err
		}
		return set, a.GroupClosure(set)
	case model.KindDevice:
		set, err := a.linkedToUsers(users, model.KindDevice)
		if err != nil {
			return nil, err
		}
		groups, err := a.VisibleTo(users, model.KindGroup)
		if err != nil || len(groups) == 0 {
			return set, err
		}
		err = a.Tx.Devices().List(func(d *model.Device) bool {
			if d.GroupID != 0 && groups[d.GroupID] {
				set[d.ID] = true
			}
			return true
		})
		return set, err
	default:
		return a.linkedToUsers(users, kind)
	}
}

// Visible is the set of kind the actor reaches (unused for administrators,
// who reach everything).
func (a Guard) Visible(kind string) (map[int64]bool, error) {
	owners, err := a.OwnerIDs()
	if err != nil {
		return nil, err
	}
	return a.VisibleTo(owners, kind)
}

// CanSee reports whether the actor reaches object (kind, id).
func (a Guard) CanSee(kind string, id int64) (bool, error) {
	if a.Actor.Administrator {
		return true, nil
	}
	if kind == model.KindUser || kind == model.KindManagedUser {
		return a.managesUser(id)
	}
	set, err := a.Visible(kind)
	return set[id], err
}

// managesUser: an administrator reaches every user, anyone reaches
// themselves, and a manager reaches the users it manages.
func (a Guard) managesUser(id int64) (bool, error) {
	if a.Actor.Administrator || a.Actor.ID == id {
		return true, nil
	}
	if !a.Actor.Manager() {
		return false, nil
	}
	managed, err := a.Tx.Linked(model.KindUser, a.Actor.ID, model.KindManagedUser)
	return slices.Contains(managed, id), err
}

// MustSee turns "not reachable" into a not-found error, so callers cannot
// probe for ids they may not see.
func (a Guard) MustSee(kind string, id int64) error {
	ok, err := a.CanSee(kind, id)
	if err != nil {
		return err
	}
	if !ok {
		return model.NotFound(kindNames[kind])
	}
	return nil
}

// MustSeeDevices is mustSee for many devices: the visible set is computed
// once (it reads every group, and every device reached through one), not
// once per id.
func (a Guard) MustSeeDevices(ids []int64) error {
	if a.Actor.Administrator {
		return nil
	}
	set, err := a.Visible(model.KindDevice)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !set[id] {
			return model.NotFound(kindNames[model.KindDevice])
		}
	}
	return nil
}

var kindNames = map[string]string{
	model.KindUser: "User", model.KindManagedUser: "User", model.KindDevice: "Device", model.KindGroup: "Group",
	model.KindGeofence: "Geofence", model.KindCommand: "Command", model.KindDriver: "Driver", model.KindAttribute: "Attribute",
	model.KindCalendar: "Calendar", model.KindMaintenance: "Maintenance", model.KindNotification: "Notification",
	model.KindReport: "Report",
}

// CheckEdit enforces the read-only flags of the server and the user.
func (a Guard) CheckEdit(kind string) error {
	if a.Actor.Administrator {
		return nil
	}
	s, err := a.Tx.Server()
	if err != nil && model.ClassOf(err) != model.ClassNotFound {
		return err
	}
	if s == nil {
		s = &model.Server{}
	}
	switch {
	case a.Actor.Readonly || s.Readonly:
		return model.Forbidden("Account is read-only")
	case kind == model.KindDevice && (a.Actor.DeviceReadonly || s.DeviceReadonly):
		return model.Forbidden("Devices are read-only for this account")
	case kind == model.KindCommand && (a.Actor.LimitCommands || s.LimitCommands):
		return model.Forbidden("Commands are limited for this account")
	}
	return nil
}

// MayEdit is MustSee and then CheckEdit: object (kind, id) must be visible
// (else not found) and the read-only flags must allow changing its kind.
func (a Guard) MayEdit(kind string, id int64) error {
	if err := a.MustSee(kind, id); err != nil {
		return err
	}
	return a.CheckEdit(kind)
}

// CheckDeviceLimit refuses one more device for user when its deviceLimit
// (-1 unlimited) is reached.
func (a Guard) CheckDeviceLimit(user *model.User) error {
	if user.Administrator || user.DeviceLimit < 0 {
		return nil
	}
	set, err := Guard{Tx: a.Tx, Actor: user}.Visible(model.KindDevice)
	if err != nil {
		return err
	}
	if len(set) >= user.DeviceLimit {
		return &model.Error{Class: model.ClassInvalid, Message: "Device limit reached",
			Description: "The account's device limit is reached; remove a device or ask an administrator to raise the limit"}
	}
	return nil
}

// Exists returns a not-found error for an id with no object behind it:
// canSee is true for administrators whatever the id.
func (a Guard) Exists(kind string, id int64) error {
	var err error
	switch kind {
	case model.KindUser, model.KindManagedUser:
		_, err = a.Tx.Users().Get(id)
	case model.KindDevice:
		_, err = a.Tx.Devices().Get(id)
	case model.KindGroup:
		_, err = a.Tx.Groups().Get(id)
	case model.KindGeofence:
		_, err = a.Tx.Geofences().Get(id)
	case model.KindCommand:
		_, err = a.Tx.Commands().Get(id)
	case model.KindDriver:
		_, err = a.Tx.Drivers().Get(id)
	case model.KindAttribute:
		_, err = a.Tx.ComputedAttributes().Get(id)
	case model.KindCalendar:
		_, err = a.Tx.Calendars().Get(id)
	case model.KindMaintenance:
		_, err = a.Tx.Maintenances().Get(id)
	case model.KindNotification:
		_, err = a.Tx.Notifications().Get(id)
	case model.KindReport:
		_, err = a.Tx.Reports().Get(id)
	}
	return err
}

// Reference checks an id a request points at (a parent group, a target
// device): it must exist and be visible, else the request is invalid.
func (a Guard) Reference(kind string, id int64) error {
	ok, err := a.CanSee(kind, id)
	if err == nil && ok {
		err = a.Exists(kind, id)
	}
	if model.ClassOf(err) == model.ClassNotFound || (err == nil && !ok) {
		return model.Invalid("%s %d not found", strings.ToLower(kindNames[kind]), id)
	}
	return err
}

// EachDevice calls fn for every device the actor sees, in id order.
func (a Guard) EachDevice(fn func(*model.Device) error) error {
	var set map[int64]bool
	if !a.Actor.Administrator {
		var err error
		if set, err = a.Visible(model.KindDevice); err != nil {
			return err
		}
	}
	var ferr error
	err := a.Tx.Devices().List(func(d *model.Device) bool {
		if set == nil || set[d.ID] {
			ferr = fn(d)
		}
		return ferr == nil
	})
	if err != nil {
		return err
	}
	return ferr
}

// LinkedToDevice lists the ids of kind linked to d, to its group or to
// the group's ancestors, sorted and without repeats.
func LinkedToDevice(tx model.Tx, d *model.Device, kind string) ([]int64, error) {
	ids, err := tx.Linked(model.KindDevice, d.ID, kind)
	if err != nil {
		return nil, err
	}
	for g, hops := d.GroupID, 0; g != 0 && hops < 100; hops++ {
		more, err := tx.Linked(model.KindGroup, g, kind)
		if err != nil {
			return nil, err
		}
		ids = append(ids, more...)
		group, err := tx.Groups().Get(g)
		if err != nil {
			break
		}
		g = group.GroupID
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// DeviceObjects reads from table the objects of kind linked to d, its
// group or the group's ancestors (LinkedToDevice), in id order; an id
// whose object is gone is skipped.
func DeviceObjects[T any](tx model.Tx, d *model.Device, kind string, table model.Table[T]) ([]*T, error) {
	ids, err := LinkedToDevice(tx, d, kind)
	if err != nil {
		return nil, err
	}
	var out []*T
	for _, id := range ids {
		v, err := table.Get(id)
		if errors.Is(err, model.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
