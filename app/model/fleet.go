package model

import "time"

// What the fleet keeps besides the core tables: devices' installation
// records, and (through Tx.Drivers, whose uniqueIds the store keeps
// unique) the drivers' index by uniqueId.

// Installation is a device's installation record (spec M3, M5), kept
// under the device's id. Removing it (M5) leaves the device; removing the
// device removes it.
type Installation struct {
	DeviceID    int64     `json:"deviceId"`
	InstalledAt time.Time `json:"installedAt"`
	// InstalledBy is the user who registered the device through M3.
	InstalledBy   int64  `json:"installedBy"`
	InstallerName string `json:"installerName"`
	Location      string `json:"location,omitempty"`
	Notes         string `json:"notes,omitempty"`
}

func (Installation) FieldLimits() map[string]int {
	return map[string]int{"notes": MaxMessage}
}

// FleetTx is the fleet's part of a transaction.
type FleetTx interface {
	Installations() Installations
	// DriverByUniqueID is the driver whose uniqueId (trimmed) is
	// uniqueID. Tx.Drivers refuses, with a Conflict, a driver whose
	// uniqueId another driver holds.
	DriverByUniqueID(uniqueID string) (*Driver, error)
}

// Installations are the installation records by device id. There is no
// Create: a record takes its device's id.
type Installations interface {
	// Get is NotFound when the device has no record.
	Get(deviceID int64) (*Installation, error)
	// Put stores inst under inst.DeviceID, replacing any record there.
	Put(inst *Installation) error
	// Delete is NotFound when the device has no record.
	Delete(deviceID int64) error
	// List calls fn in device id order until it returns false.
	List(fn func(*Installation) bool) error
}
