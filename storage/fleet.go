package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// The fleet's records: installation records in the registered collection
// "installations" under their device's id, as the fleet wrote them
// through the generic record sets (the same JSON), and the drivers'
// uniqueId index, the key set "drivers_by_unique_id" that driversSpec
// keeps (entities.go).

// storedInstallation is an installation record as stored: the fields it
// was first written with.
type storedInstallation struct {
	DeviceID      int64     `json:"deviceId"` // the key is authoritative
	InstalledAt   time.Time `json:"installedAt"`
	InstalledBy   int64     `json:"installedBy"`
	InstallerName string    `json:"installerName"`
	Location      string    `json:"location,omitempty"`
	Notes         string    `json:"notes,omitempty"`
}

func storeInstallation(i *model.Installation) storedInstallation {
	return storedInstallation{DeviceID: i.DeviceID, InstalledAt: i.InstalledAt, InstalledBy: i.InstalledBy,
		InstallerName: i.InstallerName, Location: i.Location, Notes: i.Notes}
}

func loadInstallation(deviceID int64, s storedInstallation) *model.Installation {
	return &model.Installation{DeviceID: deviceID, InstalledAt: s.InstalledAt, InstalledBy: s.InstalledBy,
		InstallerName: s.InstallerName, Location: s.Location, Notes: s.Notes}
}

type fleetTx struct{ btx *bolt.Tx }

func (t *tx) Fleet() model.FleetTx { return fleetTx{t.btx} }

func (f fleetTx) Installations() model.Installations { return installations{f.btx} }

func (f fleetTx) DriverByUniqueID(uniqueID string) (*model.Driver, error) {
	return table[model.Driver, *model.Driver]{&driversSpec, f.btx}.byIndex(uniqueID)
}

type installations struct{ btx *bolt.Tx }

func (i installations) bucket() *bolt.Bucket {
	return collectionBucket(i.btx, colInstallation.bucket())
}

func (i installations) Get(deviceID int64) (*model.Installation, error) {
	var s storedInstallation
	if ok, err := getStored(i.bucket(), deviceID, &s, colInstallation.what); err != nil || !ok {
		return nil, model.FirstError(err, model.NotFound(colInstallation.what))
	}
	return loadInstallation(deviceID, s), nil
}

func (i installations) Put(inst *model.Installation) error {
	if inst.DeviceID <= 0 {
		return model.Invalid("device id must be positive")
	}
	return putStored(i.bucket(), inst.DeviceID, storeInstallation(inst))
}

func (i installations) Delete(deviceID int64) error {
	b := i.bucket()
	if b.Get(idKey(deviceID)) == nil {
		return model.NotFound(colInstallation.what)
	}
	return b.Delete(idKey(deviceID))
}

func (i installations) List(fn func(*model.Installation) bool) error {
	c := i.bucket().Cursor()
	for k, data := c.First(); k != nil; k, data = c.Next() {
		var s storedInstallation
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("decode %s %d: %w", colInstallation.what, keyID(k), err)
		}
		if !fn(loadInstallation(keyID(k), s)) {
			return nil
		}
	}
	return nil
}
