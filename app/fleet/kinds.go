package fleet

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
)

// endOfTime bounds "all of a device's history" in range deletes; it is well
// inside the range of nanosecond keys.
var endOfTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)

func newDevices(fl *Service) *Objects[model.Device, *model.Device] {
	return &Objects[model.Device, *model.Device]{
		store: fl.store, kind: model.KindDevice,
		table: func(tx model.Tx) model.Table[model.Device] { return tx.Devices() },
		match: matchIDs,
		index: deviceIndex,
		view:  fl.hooks.View,
		// A registered id is no longer unknown.
		stored: fl.hooks.Registered,
		prepare: func(a access.Guard, before, d *model.Device) error {
			d.Name = strings.TrimSpace(d.Name)
			d.UniqueID = strings.TrimSpace(d.UniqueID)
			if d.Name == "" || d.UniqueID == "" {
				return model.Invalid("name and uniqueId are required")
			}
			if err := limits.UniqueID(d.UniqueID); err != nil {
				return err
			}
			if d.Attributes == nil {
				d.Attributes = model.Attributes{}
			}
			if err := model.FirstError(checkParent(a, d.GroupID), checkCalendar(a, d.CalendarID)); err != nil {
				return err
			}
			if before == nil {
				if err := a.CheckDeviceLimit(a.Actor); err != nil {
					return err
				}
				before = &model.Device{Status: model.StatusOffline}
			}
			// Status, position and last update belong to the ingest.
			d.Status, d.PositionID, d.LastUpdate = before.Status, before.PositionID, before.LastUpdate
			if !a.Actor.Administrator {
				d.ExpirationTime = before.ExpirationTime
			}
			return nil
		},
		drain: func(tx model.Tx, d *model.Device) (bool, error) { return drainHistory(tx, d.ID) },
		remove: func(tx model.Tx, d *model.Device) (func(), error) {
			// What the ingest stored since the last drain.
			for done := false; !done; {
				var err error
				if done, err = drainHistory(tx, d.ID); err != nil {
					return nil, err
				}
			}
			if err := deleteInstallation(tx, d.ID); err != nil {
				return nil, err
			}
			if _, err := tx.Media().DeletePrefix(mediaPrefix(d.ID)); err != nil {
				return nil, err
			}
			dropFiles, err := fl.hooks.DropEntity(tx, office.DocumentOfVehicle, d.ID)
			// The live state goes only once the deletion has committed: a
			// rolled-back one must leave the device as it was.
			return func() { fl.hooks.Removed(d.ID); dropFiles() }, err
		},
	}
}

func newGroups(fl *Service) *Objects[model.Group, *model.Group] {
	return &Objects[model.Group, *model.Group]{
		store: fl.store, kind: model.KindGroup,
		table: func(tx model.Tx) model.Table[model.Group] { return tx.Groups() },
		prepare: func(a access.Guard, before, g *model.Group) error {
			g.Name = strings.TrimSpace(g.Name)
			if g.Name == "" {
				return model.Invalid("name is required")
			}
			if g.Attributes == nil {
				g.Attributes = model.Attributes{}
			}
			if err := checkParent(a, g.GroupID); err != nil {
				return err
			}
			// A group may not become its own ancestor.
			for parent, hops := g.GroupID, 0; parent != 0 && before != nil; hops++ {
				if parent == g.ID || hops > 1000 {
					return model.Invalid("a group cannot be inside itself")
				}
				p, err := a.Tx.Groups().Get(parent)
				if err != nil {
					return err
				}
				parent = p.GroupID
			}
			return nil
		},
		remove: func(tx model.Tx, g *model.Group) (func(), error) {
			// Members move up to the deleted group's parent.
			var devices []*model.Device
			var groups []*model.Group
			err := tx.Devices().List(func(d *model.Device) bool {
				if d.GroupID == g.ID {
					devices = append(devices, d)
				}
				return true
			})
			if err == nil {
				err = tx.Groups().List(func(child *model.Group) bool {
					if child.GroupID == g.ID {
						groups = append(groups, child)
					}
					return true
				})
			}
			for _, d := range devices {
				if err != nil {
					break
				}
				d.GroupID = g.GroupID
				err = tx.Devices().Put(d)
			}
			for _, child := range groups {
				if err != nil {
					break
				}
				child.GroupID = g.GroupID
				err = tx.Groups().Put(child)
			}
			return nil, err
		},
	}
}

// checkParent accepts no group or an existing group the actor can see.
func checkParent(a access.Guard, groupID int64) error {
	if groupID == 0 {
		return nil
	}
	return a.Reference(model.KindGroup, groupID)
}

func newCommands(fl *Service) *Objects[model.Command, *model.Command] {
	return &Objects[model.Command, *model.Command]{
		store: fl.store, kind: model.KindCommand,
		table: func(tx model.Tx) model.Table[model.Command] { return tx.Commands() },
		prepare: func(a access.Guard, _, cmd *model.Command) error {
			cmd.Type = strings.TrimSpace(cmd.Type)
			if cmd.Type == "" {
				return model.Invalid("type is required")
			}
			if cmd.Attributes == nil {
				cmd.Attributes = model.Attributes{}
			}
			if cmd.DeviceID != 0 {
				return a.Reference(model.KindDevice, cmd.DeviceID)
			}
			return nil
		},
	}
}

func newGeofences(fl *Service) *Objects[model.Geofence, *model.Geofence] {
	return &Objects[model.Geofence, *model.Geofence]{
		store: fl.store, kind: model.KindGeofence,
		table: func(tx model.Tx) model.Table[model.Geofence] { return tx.Geofences() },
		prepare: func(a access.Guard, _, g *model.Geofence) error {
			g.Name = strings.TrimSpace(g.Name)
			g.Area = strings.TrimSpace(g.Area)
			if g.Name == "" || g.Area == "" {
				return model.Invalid("name and area are required")
			}
			if _, err := geo.Parse(g.Area); err != nil {
				return model.Invalid("%v", err)
			}
			if err := checkCalendar(a, g.CalendarID); err != nil {
				return err
			}
			if g.Attributes == nil {
				g.Attributes = model.Attributes{}
			}
			return nil
		},
	}
}

func newDrivers(fl *Service) *Objects[model.Driver, *model.Driver] {
	return &Objects[model.Driver, *model.Driver]{
		store: fl.store, kind: model.KindDriver,
		table: model.Tx.Drivers,
		prepare: func(a access.Guard, before, d *model.Driver) error {
			d.Name, d.UniqueID = strings.TrimSpace(d.Name), strings.TrimSpace(d.UniqueID)
			if d.Name == "" || d.UniqueID == "" {
				return model.Invalid("name and uniqueId are required")
			}
			if d.Attributes == nil {
				d.Attributes = model.Attributes{}
			}
			// The store keeps uniqueIds unique: Create and Put refuse a
			// taken one ("driver with uniqueId %q already exists").
			return nil
		},
		remove: func(tx model.Tx, d *model.Driver) (func(), error) {
			return fl.hooks.DropEntity(tx, office.DocumentOfDriver, d.ID)
		},
	}
}
