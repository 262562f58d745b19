package storage

import (
	"encoding/json"
	"fmt"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// tx implements model.Tx on a bbolt transaction. Open guarantees every bucket
// exists, so Bucket never returns nil here.
type tx struct {
	btx *bolt.Tx
	db  *DB
	// changes are this transaction's changes to the position log.
	changes *logChanges
}

var _ model.Tx = (*tx)(nil)

func (t *tx) Users() model.Table[model.User]     { return t.users() }
func (t *tx) Devices() model.Table[model.Device] { return t.devices() }
func (t *tx) Groups() model.Table[model.Group] {
	return table[model.Group, *model.Group]{&groupsSpec, t.btx}
}
func (t *tx) Commands() model.Table[model.Command] {
	return table[model.Command, *model.Command]{&commandsSpec, t.btx}
}
func (t *tx) Geofences() model.Table[model.Geofence] {
	return table[model.Geofence, *model.Geofence]{&geofencesSpec, t.btx}
}
func (t *tx) QueuedCommands() model.Table[model.QueuedCommand] {
	return table[model.QueuedCommand, *model.QueuedCommand]{&queueSpec, t.btx}
}

func (t *tx) Drivers() model.Table[model.Driver] {
	return table[model.Driver, *model.Driver]{&driversSpec, t.btx}
}
func (t *tx) ComputedAttributes() model.Table[model.ComputedAttribute] {
	return table[model.ComputedAttribute, *model.ComputedAttribute]{&computedSpec, t.btx}
}
func (t *tx) Calendars() model.Table[model.Calendar] {
	return table[model.Calendar, *model.Calendar]{&calendarsSpec, t.btx}
}
func (t *tx) Maintenances() model.Table[model.Maintenance] {
	return table[model.Maintenance, *model.Maintenance]{&maintenanceSpec, t.btx}
}
func (t *tx) Notifications() model.Table[model.Notification] {
	return table[model.Notification, *model.Notification]{&notificationSpec, t.btx}
}
func (t *tx) Reports() model.Table[model.Report] {
	return table[model.Report, *model.Report]{&reportSpec, t.btx}
}

func (t *tx) users() table[model.User, *model.User] {
	return table[model.User, *model.User]{&usersSpec, t.btx}
}

func (t *tx) devices() table[model.Device, *model.Device] {
	return table[model.Device, *model.Device]{&devicesSpec, t.btx}
}

func (t *tx) UserByEmail(email string) (*model.User, error) { return t.users().byIndex(email) }

func (t *tx) DeviceByUniqueID(uniqueID string) (*model.Device, error) {
	return t.devices().byIndex(uniqueID)
}

func (t *tx) Server() (*model.Server, error) {
	s := new(model.Server)
	if err := getJSON(t.btx.Bucket(bucketMeta), metaServer, s, "server settings"); err != nil {
		return nil, err
	}
	return s, nil
}

func (t *tx) PutServer(s *model.Server) error {
	return putJSON(t.btx.Bucket(bucketMeta), metaServer, s)
}

// getJSON decodes the value at key into v, or returns app.NotFound(what).
func getJSON(b *bolt.Bucket, key []byte, v any, what string) error {
	data := b.Get(key)
	if data == nil {
		return model.NotFound(what)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}
