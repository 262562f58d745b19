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

// ServiceRecord is one entry of a vehicle's maintenance history (spec
// section L), owned by its creator.
type ServiceRecord struct {
	ID           model.TextID   `json:"id"`
	Title        string         `json:"title"`
	VehicleID    model.TextID   `json:"vehicleId"`
	ServiceDate  model.Date     `json:"serviceDate"`
	Odometer     *float64       `json:"odometer"`
	ProviderName string         `json:"providerName"`
	Location     string         `json:"location"`
	Expenditure  *float64       `json:"expenditure"`
	Notes        string         `json:"notes"`
	FileIDs      []model.TextID `json:"fileIds"`
	ServiceTasks []string       `json:"serviceTasks"`
	Stamp
}

func (ServiceRecord) FieldLimits() map[string]int {
	return map[string]int{"title": model.MaxName, "providerName": model.MaxName, "location": model.MaxName,
		"notes": model.MaxMessage, "serviceTasks": model.MaxName}
}

func (r *ServiceRecord) GetID() int64   { return int64(r.ID) }
func (r *ServiceRecord) SetID(id int64) { r.ID = model.TextID(id) }

var serviceRecords = cabinet[ServiceRecord, *ServiceRecord]{name: "service_records", what: "Service record"}

// maxServiceTasks bounds the task labels of one record.
const maxServiceTasks = 50

// ServiceQuery filters L1's list; zero fields do not filter. From and To
// bound serviceDate, both inclusive.
type ServiceQuery struct {
	VehicleID int64
	From, To  time.Time
}

// ServiceRecords lists the actor's records, latest service first.
func (svc *Service) ServiceRecords(actor *model.User, q ServiceQuery) ([]*ServiceRecord, error) {
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		return nil, model.Invalid("from must not be after to")
	}
	var list []*ServiceRecord
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, err = serviceRecords.grouped(tx, actor.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	list = slices.DeleteFunc(list, func(r *ServiceRecord) bool {
		return (q.VehicleID != 0 && int64(r.VehicleID) != q.VehicleID) ||
			(!q.From.IsZero() && r.ServiceDate.Before(q.From)) ||
			(!q.To.IsZero() && r.ServiceDate.After(q.To))
	})
	slices.SortStableFunc(list, func(a, b *ServiceRecord) int {
		return cmp.Or(b.ServiceDate.Compare(a.ServiceDate.Time), cmp.Compare(b.ID, a.ID))
	})
	return list, nil
}

// ServiceRecord returns one of the actor's records.
func (svc *Service) ServiceRecord(actor *model.User, id int64) (*ServiceRecord, error) {
	var r *ServiceRecord
	err := svc.store.View(func(tx model.Tx) (err error) {
		r, err = serviceRecords.get(tx, id, ownerOnly(actor))
		return err
	})
	return r, err
}

// CreateServiceRecord stores a record apply fills from the request.
func (svc *Service) CreateServiceRecord(actor *model.User, apply func(*ServiceRecord) error) (*ServiceRecord, error) {
	r := &ServiceRecord{}
	if err := limits.FromRequest(apply, r); err != nil {
		return nil, err
	}
	err := svc.store.Update(func(tx model.Tx) error {
		if err := prepareServiceRecord(tx, actor, r); err != nil {
			return err
		}
		if err := serviceRecords.create(tx, actor.ID, svc.now(), r); err != nil {
			return err
		}
		return attachFiles(tx, actor, ref(refService, r.GetID()), nil, r.FileIDs)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// UpdateServiceRecord changes one of the actor's records; apply fills a
// copy from the request (L4: any of the fields).
func (svc *Service) UpdateServiceRecord(actor *model.User, id int64, apply func(*ServiceRecord) error) (*ServiceRecord, error) {
	var after *ServiceRecord
	err := svc.store.Update(func(tx model.Tx) error {
		before, err := serviceRecords.get(tx, id, ownerOnly(actor))
		if err != nil {
			return err
		}
		after = &ServiceRecord{}
		*after = *before
		after.FileIDs, after.ServiceTasks = slices.Clone(before.FileIDs), slices.Clone(before.ServiceTasks)
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		if err := prepareServiceRecord(tx, actor, after); err != nil {
			return err
		}
		if err := attachFiles(tx, actor, ref(refService, id), before.FileIDs, after.FileIDs); err != nil {
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
	return serviceRecords.deleteOwn(svc, actor, id, func(r *ServiceRecord) []model.TextID { return r.FileIDs })
}

// prepareServiceRecord validates a record: title, a vehicle the actor
// sees, serviceDate and a non-negative odometer are required.
func prepareServiceRecord(tx model.Tx, actor *model.User, r *ServiceRecord) error {
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
	if err := checkEntity(tx, actor, "vehicleId", DocumentOfVehicle, int64(r.VehicleID)); err != nil {
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
