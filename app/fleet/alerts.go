package fleet

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// SpeedLimitKey is the attribute the overspeed detection reads, in knots:
// the device's, else its group's (and the group's ancestors'), else the
// server's, as Traccar looks it up.
const SpeedLimitKey = "speedLimit"

// Alert is a notification with what is set up along with it: the devices
// and groups it covers (those the actor sees) and, for an overspeed
// alert, the speed limit.
type Alert struct {
	Notification    *model.Notification
	Devices, Groups []int64
	// SpeedLimit is the overspeed limit in knots, kept where the overspeed
	// detection reads it (SpeedLimitKey) on the covered devices and groups,
	// or on the server for an alert on every vehicle. Read back, it is nil
	// when none is set or the covered objects' limits differ.
	SpeedLimit *float64
}

// Alert reads a notification the actor sees with its links and limit.
func (fl *Service) Alert(actor *model.User, id int64) (*Alert, error) {
	n, err := fl.Notifications.Get(actor, id)
	if err != nil {
		return nil, err
	}
	var al *Alert
	err = fl.store.View(func(tx model.Tx) (err error) {
		al, err = readAlert(newOwnerReader(access.Guard{Tx: tx, Actor: actor}), n)
		return err
	})
	return al, err
}

// Alerts reads every notification the actor sees (those Notifications.List
// gives), each with its links and limit, in one read transaction.
func (fl *Service) Alerts(actor *model.User) ([]*Alert, error) {
	var out []*Alert
	err := fl.store.View(func(tx model.Tx) error {
		r := newOwnerReader(access.Guard{Tx: tx, Actor: actor})
		set, err := fl.Notifications.listSet(r.a, model.Query{})
		if err != nil {
			return err
		}
		var list []*model.Notification
		err = tx.Notifications().List(func(n *model.Notification) bool {
			if set == nil || set[n.ID] {
				list = append(list, n)
			}
			return true
		})
		if err != nil {
			return err
		}
		for _, n := range list {
			al, err := readAlert(r, n)
			if err != nil {
				return err
			}
			out = append(out, al)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readAlert completes n with the devices and groups it covers that the
// actor sees and, for an overspeed alert, the limit.
func readAlert(r *ownerReader, n *model.Notification) (al *Alert, err error) {
	al = &Alert{Notification: n}
	if al.Devices, err = r.owners(model.KindNotification, n.ID, model.KindDevice); err != nil {
		return nil, err
	}
	if al.Groups, err = r.owners(model.KindNotification, n.ID, model.KindGroup); err != nil {
		return nil, err
	}
	if n.Type == model.EventDeviceOverspeed {
		if al.SpeedLimit, err = speedLimitOf(r.a.Tx, al); err != nil {
			return nil, err
		}
	}
	return al, nil
}

// speedLimitOf is the limit the alert's covered objects share.
func speedLimitOf(tx model.Tx, al *Alert) (*float64, error) {
	holders, err := limitHolders(tx, al)
	if err != nil || len(holders) == 0 {
		return nil, err
	}
	limit := model.Number(holders[0].attrs[SpeedLimitKey])
	for _, h := range holders[1:] {
		if model.Number(h.attrs[SpeedLimitKey]) != limit {
			return nil, nil
		}
	}
	if limit <= 0 {
		return nil, nil
	}
	return &limit, nil
}

// limitHolder is one object that keeps an alert's speed limit: its
// attributes (written to in place) and how to store it again.
type limitHolder struct {
	kind  string
	id    int64
	attrs model.Attributes
	put   func() error
}

// limitHolders are the objects that keep the alert's speed limit: the
// server for an alert on every vehicle (none before its settings were
// first saved), else its devices and groups.
func limitHolders(tx model.Tx, al *Alert) ([]limitHolder, error) {
	if al.Notification.Always {
		s, err := tx.Server()
		if errors.Is(err, model.ErrNotFound) {
			return nil, nil // no settings yet, so no limit
		}
		if err != nil {
			return nil, err
		}
		s.Attributes = ensure(s.Attributes)
		return []limitHolder{{kind: "server", attrs: s.Attributes, put: func() error { return tx.PutServer(s) }}}, nil
	}
	var out []limitHolder
	for _, id := range al.Devices {
		d, err := tx.Devices().Get(id)
		if err != nil {
			return nil, err
		}
		d.Attributes = ensure(d.Attributes)
		out = append(out, limitHolder{model.KindDevice, id, d.Attributes, func() error { return tx.Devices().Put(d) }})
	}
	for _, id := range al.Groups {
		g, err := tx.Groups().Get(id)
		if err != nil {
			return nil, err
		}
		g.Attributes = ensure(g.Attributes)
		out = append(out, limitHolder{model.KindGroup, id, g.Attributes, func() error { return tx.Groups().Put(g) }})
	}
	return out, nil
}

func ensure(attrs model.Attributes) model.Attributes {
	if attrs == nil {
		return model.Attributes{}
	}
	return maps.Clone(attrs)
}

// setSpeedLimit writes limit (knots, to a tenth: finer than any
// speedometer) to the alert's holders the actor may change.
func setSpeedLimit(a access.Guard, al *Alert, limit float64) error {
	holders, err := limitHolders(a.Tx, al)
	if err != nil {
		return err
	}
	if len(holders) == 0 {
		return model.Invalid("the server settings are not set up yet: save them once before a limit for every vehicle")
	}
	limit = math.Round(limit*10) / 10
	for _, h := range holders {
		if model.Number(h.attrs[SpeedLimitKey]) == limit {
			continue
		}
		if h.id != 0 { // the server's is an administrator's, checked before
			if err := a.MayEdit(h.kind, h.id); err != nil {
				return err
			}
		}
		h.attrs[SpeedLimitKey] = limit
		if err := h.put(); err != nil {
			return err
		}
	}
	return nil
}

// SaveAlert creates (id 0) or changes a notification from in: its type,
// description, channels, always and alarm kinds (attributes.alarms), the
// devices and groups it covers and, for an overspeed alert, the speed
// limit written to them, all in one transaction. Every channel must be
// one of configured (the notifier's Notificators); a limit for every
// vehicle is the server's, which only an administrator sets.
func (fl *Service) SaveAlert(actor *model.User, id int64, in Alert, configured []string) (*model.Notification, error) {
	want := in.Notification
	for _, c := range strings.Split(want.Notificators, ",") {
		if c = strings.TrimSpace(c); c != "" && !slices.Contains(configured, c) {
			return nil, model.Invalid("the %s channel is not configured on this server", c)
		}
	}
	overspeed := want.Type == model.EventDeviceOverspeed
	if overspeed {
		if err := checkSpeedLimit(actor, in); err != nil {
			return nil, err
		}
	}
	apply := func(n *model.Notification) error {
		n.Type, n.Description, n.Always, n.Notificators = want.Type, want.Description, want.Always, want.Notificators
		if n.Attributes == nil {
			n.Attributes = model.Attributes{}
		}
		if alarms, _ := want.Attributes["alarms"].(string); want.Type == model.EventAlarm {
			n.Attributes["alarms"] = alarms
		} else {
			delete(n.Attributes, "alarms")
		}
		return nil
	}
	links := Links{model.KindDevice: in.Devices, model.KindGroup: in.Groups}
	return saveLinked(fl, fl.Notifications, actor, id, apply, links, func(tx model.Tx, n *model.Notification) error {
		if !overspeed {
			return nil
		}
		covered := &Alert{Notification: n, Devices: in.Devices, Groups: in.Groups}
		return setSpeedLimit(access.Guard{Tx: tx, Actor: actor}, covered, *in.SpeedLimit)
	})
}

// checkSpeedLimit: an overspeed alert needs a limit and somewhere to keep it.
func checkSpeedLimit(actor *model.User, in Alert) error {
	switch {
	case in.SpeedLimit == nil || !(*in.SpeedLimit > 0) || math.IsInf(*in.SpeedLimit, 0):
		return model.Invalid("an overspeed alert needs a speed limit above 0")
	case in.Notification.Always && !actor.Administrator:
		return model.Invalid("only an administrator sets the speed limit of every vehicle: choose the vehicles or groups")
	case !in.Notification.Always && len(in.Devices)+len(in.Groups) == 0:
		return model.Invalid("choose the vehicles or groups the speed limit applies to")
	}
	return nil
}
