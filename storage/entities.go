package storage

import (
	"encoding/json"
	"strings"

	"github.com/fleetd/fleetd/app"
)

// One spec per entity bucket; tx binds them to a transaction.
var (
	usersSpec = tableSpec[app.User]{
		bucket: bucketUsers,
		what:   "user",
		index: &uniqueIndex[app.User]{
			bucket:    bucketUserEmails,
			field:     "email",
			value:     func(u *app.User) string { return u.Email },
			normalize: app.NormalizeEmail,
		},
		encode: encodeUser,
		decode: decodeUser,
	}
	devicesSpec = tableSpec[app.Device]{
		bucket: bucketDevices,
		what:   "device",
		index: &uniqueIndex[app.Device]{
			bucket:    bucketDeviceUIDs,
			field:     "uniqueId",
			value:     func(d *app.Device) string { return d.UniqueID },
			normalize: strings.TrimSpace,
			required:  true,
		},
	}
	groupsSpec    = tableSpec[app.Group]{bucket: bucketGroups, what: "group"}
	commandsSpec  = tableSpec[app.Command]{bucket: bucketCommands, what: "command"}
	geofencesSpec = tableSpec[app.Geofence]{bucket: bucketGeofences, what: "geofence"}
	queueSpec     = tableSpec[app.QueuedCommand]{bucket: bucketQueue, what: "queued command"}
)

// storedUser is a user as written to disk: app.User hides PasswordHash
// from JSON so the API never leaks it, but the store must keep it.
type storedUser struct {
	app.User
	PasswordHash string `json:"passwordHash"`
}

// encodeUser drops the plaintext Password, which is input only.
func encodeUser(u *app.User) ([]byte, error) {
	s := storedUser{User: *u, PasswordHash: u.PasswordHash}
	s.Password = ""
	return json.Marshal(&s)
}

func decodeUser(data []byte, u *app.User) error {
	var s storedUser
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*u = s.User
	u.PasswordHash = s.PasswordHash
	return nil
}
