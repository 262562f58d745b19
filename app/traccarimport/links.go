package traccarimport

import (
	"fmt"
	"slices"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// Traccar has no list of permissions: an object list filtered by an owner
// (?userId=, ?deviceId=, ?groupId=) gives the objects linked to it, which
// is how the links are rebuilt.

// linkList is one kind of object an owner may be linked to, and the
// path that lists them.
type linkList struct {
	propKind, path string
}

// userLinks are what a user may be linked to; objectLinks what a device
// or a group may be.
var (
	userLinks = []linkList{{model.KindDevice, "devices"}, {model.KindGroup, "groups"}, {model.KindGeofence, "geofences"},
		{model.KindNotification, "notifications"}, {model.KindCalendar, "calendars"}, {model.KindMaintenance, "maintenance"},
		{model.KindDriver, "drivers"}, {model.KindAttribute, "attributes/computed"}, {model.KindCommand, "commands"},
		{model.KindManagedUser, "users"}}
	objectLinks = []linkList{{model.KindGeofence, "geofences"}, {model.KindNotification, "notifications"},
		{model.KindMaintenance, "maintenance"}, {model.KindDriver, "drivers"}, {model.KindAttribute, "attributes/computed"},
		{model.KindCommand, "commands"}}
)

// idKind is the kind a link's property is mapped as: a managed user is a user.
func idKind(propKind string) string {
	if propKind == model.KindManagedUser {
		return model.KindUser
	}
	return propKind
}

// owner is an object whose links are read: its Traccar and fleetd ids.
type owner struct {
	kind, param string // fleetd's kind, Traccar's filter parameter
	tid, fid    int64
	name        string
	lists       []linkList
}

// importLinks recreates the links of every imported user, device and
// group. Links fleetd has that Traccar lacks stay.
func (r *run) importLinks() error {
	k := r.sum.kind("links")
	var owners []owner
	for _, u := range r.users {
		if fid, ok := r.mapped(model.KindUser, u.ID); ok {
			owners = append(owners, owner{model.KindUser, "userId", u.ID, fid, u.Email, userLinks})
		}
	}
	for _, d := range r.devices {
		if fid, ok := r.mapped(model.KindDevice, d.ID); ok {
			owners = append(owners, owner{model.KindDevice, "deviceId", d.ID, fid, d.Name, objectLinks})
		}
	}
	for _, g := range r.groups {
		if fid, ok := r.mapped(model.KindGroup, g.ID); ok {
			owners = append(owners, owner{model.KindGroup, "groupId", g.ID, fid, g.Name, objectLinks})
		}
	}
	total := 0
	for _, o := range owners {
		total += len(o.lists)
	}
	done := 0
	for _, o := range owners {
		for _, l := range o.lists {
			r.progress("links", done, total)
			if err := r.linkOwner(k, o, l); err != nil {
				return err
			}
			done++
		}
	}
	r.progress("links", total, total)
	return nil
}

// linked is what Traccar's lists give of a linked object.
type linked struct {
	ID      int64 `json:"id"`
	GroupID int64 `json:"groupId"`
}

// linkOwner links o to what Traccar lists as linked to it of one kind.
func (r *run) linkOwner(k *Kind, o owner, l linkList) error {
	var items []linked
	if err := r.c.get(r.ctx, l.path, listQuery(o.param, o.tid), &items); err != nil {
		return err
	}
	tids := make([]int64, 0, len(items))
	for _, it := range items {
		tids = append(tids, it.ID)
	}
	if l.propKind == model.KindGroup {
		tids = r.topGroups(tids)
	}
	from := describe(o.kind, o.tid, o.name)
	var want []int64
	for _, tid := range tids {
		if o.kind == model.KindUser && l.propKind == model.KindManagedUser && tid == o.tid {
			continue // a user is not its own manager
		}
		fid, ok := r.mapped(idKind(l.propKind), tid)
		if !ok {
			k.skip(fmt.Sprintf("%s -> %s %d", from, l.propKind, tid), fmt.Sprintf("the %s was not imported", idKind(l.propKind)))
			continue
		}
		if !slices.Contains(want, fid) {
			want = append(want, fid)
		}
	}
	var have []int64
	if err := r.svc.Store.View(func(tx model.Tx) (err error) {
		have, err = tx.Linked(o.kind, o.fid, l.propKind)
		return err
	}); err != nil {
		return err
	}
	var add []model.Permission
	for _, fid := range want {
		if slices.Contains(have, fid) {
			k.Existing++
			continue
		}
		add = append(add, model.Permission{OwnerKind: o.kind, OwnerID: o.fid, PropKind: l.propKind, PropID: fid})
	}
	for batch := range slices.Chunk(add, fleet.MaxBulkPermissions) {
		err := r.svc.Fleet.Link(system, batch...)
		if err == nil {
			k.Created += len(batch)
			continue
		}
		if !refused(err) {
			return err
		}
		for _, p := range batch { // one at a time, to tell which fleetd refuses
			switch err := r.svc.Fleet.Link(system, p); {
			case err == nil:
				k.Created++
			case refused(err):
				k.skip(fmt.Sprintf("%s -> %s (fleetd id %d)", from, l.propKind, p.PropID), reason(err))
			default:
				return err
			}
		}
	}
	return nil
}

// topGroups drops from a user's groups those under another of them that
// was imported: Traccar lists a group's subgroups with it, and in fleetd a
// link to a group reaches its subgroups as well.
func (r *run) topGroups(tids []int64) []int64 {
	parent := map[int64]int64{}
	for _, g := range r.groups {
		parent[g.ID] = g.GroupID
	}
	var out []int64
	for _, tid := range tids {
		under := false
		for p, hops := parent[tid], 0; p != 0 && hops < len(parent); p, hops = parent[p], hops+1 {
			if _, ok := r.mapped(model.KindGroup, p); ok && slices.Contains(tids, p) {
				under = true
				break
			}
		}
		if !under {
			out = append(out, tid)
		}
	}
	return out
}
