package office

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Public tasks are the group of owner 0.
var serviceTasks = cabinet[model.ServiceTask, *model.ServiceTask]{what: "Task", table: model.OfficeTx.ServiceTasks}

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
	var seeded bool
	if err := svc.store.View(func(tx model.Tx) (err error) {
		seeded, err = tx.Office().TasksSeeded()
		return err
	}); err != nil || seeded {
		return err
	}
	return svc.store.Update(func(tx model.Tx) error {
		if done, err := tx.Office().TasksSeeded(); err != nil || done {
			return err
		}
		for _, label := range DefaultServiceTasks {
			if err := serviceTasks.create(tx, 0, svc.now(), &model.ServiceTask{Label: label}); err != nil {
				return err
			}
		}
		return tx.Office().SetTasksSeeded()
	})
}

// ServiceTasks lists the public tasks, then the actor's own, in creation order.
func (svc *Service) ServiceTasks(actor *model.User) ([]*model.ServiceTask, error) {
	if err := svc.seedServiceTasks(); err != nil {
		return nil, err
	}
	var list []*model.ServiceTask
	err := svc.store.View(func(tx model.Tx) (err error) {
		list, err = svc.visibleTasks(tx, actor)
		return err
	})
	return list, err
}

func (svc *Service) visibleTasks(tx model.Tx, actor *model.User) ([]*model.ServiceTask, error) {
	public, err := serviceTasks.grouped(tx, 0)
	if err != nil {
		return nil, err
	}
	own, err := serviceTasks.grouped(tx, actor.ID)
	return append(public, own...), err
}

// CreateServiceTask adds a task of the actor; a label the actor already
// sees (public or own, ignoring case) is refused.
func (svc *Service) CreateServiceTask(actor *model.User, label string) (*model.ServiceTask, error) {
	t := &model.ServiceTask{Label: label}
	if err := limits.Required(map[string]*string{"label": &t.Label}); err != nil {
		return nil, err
	}
	if err := limits.Check(t); err != nil {
		return nil, err
	}
	if err := svc.seedServiceTasks(); err != nil {
		return nil, err
	}
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
			return err
		}
		seen, err := svc.visibleTasks(tx, actor)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(seen, func(s *model.ServiceTask) bool { return strings.EqualFold(s.Label, t.Label) }) {
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
	return svc.store.As(actor).Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
			return err
		}
		own, err := serviceTasks.grouped(tx, actor.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(own, func(s *model.ServiceTask) bool { return strings.EqualFold(s.Label, label) })
		if i < 0 {
			return model.NotFound(serviceTasks.what)
		}
		return serviceTasks.remove(tx, own[i])
	})
}
