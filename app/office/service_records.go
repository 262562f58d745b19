package office

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

var serviceRecords = cabinet[model.ServiceRecord, *model.ServiceRecord]{what: "Service record", table: model.OfficeTx.ServiceRecords}

// maxServiceTasks bounds the task labels of one record.
const maxServiceTasks = 50

// ServiceQuery filters L1's list; zero fields do not filter. From and To
// bound serviceDate, both inclusive.
type ServiceQuery struct {
	VehicleID int64
	From, To  time.Time
}

// ServiceRecords lists the actor's records, latest service first.
func (svc *Service) ServiceRecords(actor *model.User, q ServiceQuery) ([]*model.ServiceRecord, error) {
	return svc.serviceRecords(actor, ownPath, 0, q)
}

// serviceRecords lists the records p reaches (owner's only, unless 0) that
// match q, latest service first.
func (svc *Service) serviceRecords(actor *model.User, p path, owner int64, q ServiceQuery) ([]*model.ServiceRecord, error) {
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		return nil, model.Invalid("from must not be after to")
	}
	var list []*model.ServiceRecord
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, err = serviceRecords.listVia(tx, actor, p, owner)
		return err
	})
	if err != nil {
		return nil, err
	}
	list = slices.DeleteFunc(list, func(r *model.ServiceRecord) bool {
		return (q.VehicleID != 0 && int64(r.VehicleID) != q.VehicleID) ||
			(!q.From.IsZero() && r.ServiceDate.Before(q.From)) ||
			(!q.To.IsZero() && r.ServiceDate.After(q.To))
	})
	slices.SortStableFunc(list, func(a, b *model.ServiceRecord) int {
		return cmp.Or(b.ServiceDate.Compare(a.ServiceDate.Time), cmp.Compare(b.ID, a.ID))
	})
	return list, nil
}

// ServiceRecord returns one of the actor's records.
func (svc *Service) ServiceRecord(actor *model.User, id int64) (*model.ServiceRecord, error) {
	return serviceRecords.readVia(svc.store, actor, ownPath, id)
}

// CreateServiceRecord stores a record apply fills from the request.
func (svc *Service) CreateServiceRecord(actor *model.User, apply func(*model.ServiceRecord) error) (*model.ServiceRecord, error) {
	r := &model.ServiceRecord{}
	if err := limits.FromRequest(apply, r); err != nil {
		return nil, err
	}
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		if err := prepareServiceRecord(tx, actor, actor, r); err != nil {
			return err
		}
		if err := serviceRecords.create(tx, actor.ID, svc.now(), r); err != nil {
			return err
		}
		if err := svc.recorded(tx, r); err != nil {
			return err
		}
		return attachFiles(tx, actor, actor.ID, ref(refService, r.GetID()), nil, r.FileIDs)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// UpdateServiceRecord changes one of the actor's records; apply fills a
// copy from the request (L4: any of the fields).
func (svc *Service) UpdateServiceRecord(actor *model.User, id int64, apply func(*model.ServiceRecord) error) (*model.ServiceRecord, error) {
	return svc.updateServiceRecord(actor, ownPath, id, apply)
}

func (svc *Service) updateServiceRecord(actor *model.User, p path, id int64, apply func(*model.ServiceRecord) error) (*model.ServiceRecord, error) {
	var after *model.ServiceRecord
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		before, err := serviceRecords.reachable(tx, actor, p, id)
		if err != nil {
			return err
		}
		owner, err := ownerOf(tx, actor, before.Owner())
		if err != nil {
			return err
		}
		after = &model.ServiceRecord{}
		*after = *before
		after.FileIDs, after.ServiceTasks = slices.Clone(before.FileIDs), slices.Clone(before.ServiceTasks)
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		if err := prepareServiceRecord(tx, actor, owner, after); err != nil {
			return err
		}
		if err := attachFiles(tx, actor, owner.ID, ref(refService, id), before.FileIDs, after.FileIDs); err != nil {
			return err
		}
		if err := svc.recorded(tx, after); err != nil {
			return err
		}
		return serviceRecords.update(tx, before, after, svc.now())
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// DeleteServiceRecord removes one of the actor's records and its files.
func (svc *Service) DeleteServiceRecord(actor *model.User, id int64) error {
	return svc.deleteServiceRecord(actor, ownPath, id)
}

func (svc *Service) deleteServiceRecord(actor *model.User, p path, id int64) error {
	return serviceRecords.deleteVia(svc, actor, p, id, func(r *model.ServiceRecord) []model.TextID { return r.FileIDs })
}

// prepareServiceRecord validates a record of owner: title, a vehicle the
// owner sees, serviceDate and a non-negative odometer are required.
func prepareServiceRecord(tx model.Tx, actor, owner *model.User, r *model.ServiceRecord) error {
	a := access.Guard{Tx: tx, Actor: actor}
	if err := a.CheckEdit(""); err != nil {
		return err
	}
	if err := limits.Required(map[string]*string{"title": &r.Title}); err != nil {
		return err
	}
	switch {
	case r.VehicleID == 0:
		return model.Invalid("vehicleId is required")
	case r.ServiceDate.IsZero():
		return model.Invalid("serviceDate is required")
	case r.Odometer == nil:
		return model.Invalid("odometer is required")
	case *r.Odometer < 0 || (r.Expenditure != nil && *r.Expenditure < 0):
		return model.Invalid("odometer and expenditure must not be negative")
	}
	if err := checkEntity(tx, actor, owner, "vehicleId", DocumentOfVehicle, int64(r.VehicleID)); err != nil {
		return err
	}
	for _, s := range []*string{&r.Title, &r.ProviderName, &r.Location} {
		*s = strings.TrimSpace(*s)
	}
	var err error
	if r.FileIDs, err = uniqueFileIDs(r.FileIDs); err != nil {
		return err
	}
	r.ServiceTasks, err = cleanLabels(r.ServiceTasks)
	return err
}

// cleanLabels trims task labels and drops empty and repeated ones.
func cleanLabels(labels []string) ([]string, error) {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		l = strings.TrimSpace(l)
		if l != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, l) }) {
			out = append(out, l)
		}
	}
	if len(out) > maxServiceTasks {
		return nil, model.Invalid("at most %d service tasks per record", maxServiceTasks)
	}
	return out, nil
}
