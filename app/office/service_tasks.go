package office

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// ServiceTask is a reusable maintenance task label (spec L6..L8): public
// (no owner, offered to everyone) or one user's own.
type ServiceTask struct {
	ID    model.TextID `json:"id"`
	Label string       `json:"label"`
	Stamp
}

func (ServiceTask) FieldLimits() map[string]int {
	return map[string]int{"label": model.MaxName}
}

func (t *ServiceTask) GetID() int64   { return int64(t.ID) }
func (t *ServiceTask) SetID(id int64) { t.ID = model.TextID(id) }

// Public tasks are the group of owner 0.
var serviceTasks = cabinet[ServiceTask, *ServiceTask]{name: "service_tasks", what: "Task"}

// DefaultServiceTasks are the public tasks a new store starts with.
var DefaultServiceTasks = []string{
	"Oil change", "Oil filter replacement", "Air filter replacement", "Fuel filter replacement",
	"Cabin filter replacement", "Tyre rotation", "Tyre replacement", "Wheel alignment", "Brake inspection",
	"Brake pad replacement", "Brake fluid change", "Battery check", "Coolant flush", "Transmission service",
	"Spark plug replacement", "Timing belt replacement", "Wiper blade replacement", "Lights check",
	"Air conditioning service", "General inspection",
}

// seedServiceTasks adds DefaultServiceTasks once per store, on first use.
func (svc *Service) seedServiceTasks() error {
	const seed = "service_tasks"
	var seeded bool
	if err := svc.store.View(func(tx model.Tx) (err error) {
		_, seeded, err = tx.Keys("seeds").Get(seed)
		return err
	}); err != nil || seeded {
		return err
	}
	return svc.store.Update(func(tx model.Tx) error {
		if _, done, err := tx.Keys("seeds").Get(seed); err != nil || done {
			return err
		}
		for _, label := range DefaultServiceTasks {
			if err := serviceTasks.create(tx, 0, svc.now(), &ServiceTask{Label: label}); err != nil {
				return err
			}
		}
		return tx.Keys("seeds").Put(seed, 1)
	})
}

// ServiceTasks lists the public tasks, then the actor's own, in creation order.
func (svc *Service) ServiceTasks(actor *model.User) ([]*ServiceTask, error) {
	if err := svc.seedServiceTasks(); err != nil {
		return nil, err
	}
	var list []*ServiceTask
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, err = svc.visibleTasks(tx, actor)
		return err
	})
	return list, err
}

func (svc *Service) visibleTasks(tx model.Tx, actor *model.User) ([]*ServiceTask, error) {
	public, err := serviceTasks.grouped(tx, 0)
	if err != nil {
		return nil, err
	}
	own, err := serviceTasks.grouped(tx, actor.ID)
	return append(public, own...), err
}

// CreateServiceTask adds a task of the actor; a label the actor already
// sees (public or own, ignoring case) is refused.
func (svc *Service) CreateServiceTask(actor *model.User, label string) (*ServiceTask, error) {
	t := &ServiceTask{Label: label}
	if err := limits.Required(map[string]*string{"label": &t.Label}); err != nil {
		return nil, err
	}
	if err := limits.Check(t); err != nil {
		return nil, err
	}
	if err := svc.seedServiceTasks(); err != nil {
		return nil, err
	}
	err := svc.store.Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
			return err
		}
		seen, err := svc.visibleTasks(tx, actor)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(seen, func(s *ServiceTask) bool { return strings.EqualFold(s.Label, t.Label) }) {
			return model.Conflict("a task labelled %q already exists", t.Label)
		}
		return serviceTasks.create(tx, actor.ID, svc.now(), t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// DeleteServiceTask removes the actor's own task with label (ignoring
// case); public and other users' tasks are never removed.
func (svc *Service) DeleteServiceTask(actor *model.User, label string) error {
	label = strings.TrimSpace(label)
	if label == "" {
		return model.Invalid("label is required")
	}
	if err := limits.Text("label", label, model.MaxName); err != nil {
		return err
	}
	return svc.store.Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
			return err
		}
		own, err := serviceTasks.grouped(tx, actor.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(own, func(s *ServiceTask) bool { return strings.EqualFold(s.Label, label) })
		if i < 0 {
			return model.NotFound(serviceTasks.what)
		}
		return serviceTasks.remove(tx, own[i])
	})
}
