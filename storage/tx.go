package storage

import (
	"encoding/json"
	"fmt"

	"github.com/fleetd/fleetd/app"
	bolt "go.etcd.io/bbolt"
)

// tx implements app.Tx on a bbolt transaction. Open guarantees every bucket
// exists, so Bucket never returns nil here.
type tx struct {
	btx *bolt.Tx
}

var _ app.Tx = (*tx)(nil)

func (t *tx) Users() app.Table[app.User]     { return t.users() }
func (t *tx) Devices() app.Table[app.Device] { return t.devices() }
func (t *tx) Groups() app.Table[app.Group] {
	return table[app.Group, *app.Group]{&groupsSpec, t.btx}
}
func (t *tx) Commands() app.Table[app.Command] {
	return table[app.Command, *app.Command]{&commandsSpec, t.btx}
}
func (t *tx) Geofences() app.Table[app.Geofence] {
	return table[app.Geofence, *app.Geofence]{&geofencesSpec, t.btx}
}
func (t *tx) QueuedCommands() app.Table[app.QueuedCommand] {
	return table[app.QueuedCommand, *app.QueuedCommand]{&queueSpec, t.btx}
}

func (t *tx) users() table[app.User, *app.User] {
	return table[app.User, *app.User]{&usersSpec, t.btx}
}

func (t *tx) devices() table[app.Device, *app.Device] {
	return table[app.Device, *app.Device]{&devicesSpec, t.btx}
}

func (t *tx) UserByEmail(email string) (*app.User, error) { return t.users().byIndex(email) }

func (t *tx) DeviceByUniqueID(uniqueID string) (*app.Device, error) {
	return t.devices().byIndex(uniqueID)
}

func (t *tx) Server() (*app.Server, error) {
	s := new(app.Server)
	if err := getJSON(t.btx.Bucket(bucketMeta), metaServer, s, "server settings"); err != nil {
		return nil, err
	}
	return s, nil
}

func (t *tx) PutServer(s *app.Server) error {
	return putJSON(t.btx.Bucket(bucketMeta), metaServer, s)
}

// getJSON decodes the value at key into v, or returns app.NotFound(what).
func getJSON(b *bolt.Bucket, key []byte, v any, what string) error {
	data := b.Get(key)
	if data == nil {
		return app.NotFound(what)
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
