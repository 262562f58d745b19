package storage

import (
	"encoding/json"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// One spec per entity bucket; tx binds them to a transaction.
var (
	usersSpec = tableSpec[model.User]{
		bucket: bucketUsers,
		what:   "user",
		index: &uniqueIndex[model.User]{
			bucket:    bucketUserEmails,
			field:     "email",
			value:     func(u *model.User) string { return u.Email },
			normalize: model.NormalizeEmail,
		},
		encode: encodeUser,
		decode: decodeUser,
	}
	devicesSpec = tableSpec[model.Device]{
		bucket: bucketDevices,
		what:   "device",
		index: &uniqueIndex[model.Device]{
			bucket:    bucketDeviceUIDs,
			field:     "uniqueId",
			value:     func(d *model.Device) string { return d.UniqueID },
			normalize: strings.TrimSpace,
			required:  true,
		},
	}
	groupsSpec    = tableSpec[model.Group]{bucket: bucketGroups, what: "group"}
	commandsSpec  = tableSpec[model.Command]{bucket: bucketCommands, what: "command"}
	geofencesSpec = tableSpec[model.Geofence]{bucket: bucketGeofences, what: "geofence"}
	queueSpec     = tableSpec[model.QueuedCommand]{bucket: bucketQueue, what: "queued command"}
)

// storedUser is a user as written to disk: app.User hides PasswordHash
// from JSON so the API never leaks it, but the store must keep it.
type storedUser struct {
	model.User
	PasswordHash string `json:"passwordHash"`
}

// encodeUser drops the plaintext Password, which is input only.
func encodeUser(u *model.User) ([]byte, error) {
	s := storedUser{User: *u, PasswordHash: u.PasswordHash}
	s.Password = ""
	return json.Marshal(&s)
}

func decodeUser(data []byte, u *model.User) error {
	var s storedUser
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*u = s.User
	u.PasswordHash = s.PasswordHash
	return nil
}
