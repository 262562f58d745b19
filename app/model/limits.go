package model

// Every string a client can make fleetd store has a maximum length, checked
// before the store is written: a record stays small, and no value becomes an
// index key longer than the store takes (bbolt refuses keys over 32 KiB; a
// 40,000-digit uniqueId used to answer 500). Lengths count characters
// (Unicode code points), as JSON Schema's maxLength and Traccar's VARCHAR
// columns do; no limit is below Traccar's column for the same field, so
// what a Traccar client stores fits.
const (
	MaxUniqueID = 128   // device and driver uniqueId: Traccar's column
	MaxEmail    = 254   // the longest address RFC 5321 lets through
	MaxName     = 256   // names, titles, labels, phone numbers, short codes (Traccar: 128)
	MaxText     = 4096  // any other string, attribute values included (Traccar: 4000)
	MaxMessage  = 10000 // ticket descriptions and messages, notes
	MaxArea     = 65536 // a geofence's WKT (Traccar: 4096): about 3,000 polygon points
	// MaxAttributeKey bounds the keys of attributes maps.
	MaxAttributeKey = 128
	// MaxPassword is in bytes: bcrypt reads no further, so a longer
	// password would be silently cut.
	MaxPassword = 72
)

// MaxAttributeName bounds the attribute a computed attribute sets, and
// MaxExpression its expression (the ingest evaluates it for every position).
const (
	MaxAttributeName = 64
	MaxExpression    = 1000
)

// Limited is a type the core takes from requests. FieldLimits gives, per
// JSON field name, the limits that differ from MaxText; every other string
// field has MaxText.
type Limited interface {
	FieldLimits() map[string]int
}

func (User) FieldLimits() map[string]int {
	return map[string]int{"name": MaxName, "login": MaxName, "email": MaxEmail, "phone": MaxName,
		"map": MaxName, "coordinateFormat": MaxName, "password": MaxPassword}
}

func (Device) FieldLimits() map[string]int {
	return map[string]int{"name": MaxName, "uniqueId": MaxUniqueID, "status": MaxName, "phone": MaxName,
		"model": MaxName, "category": MaxName}
}

func (Group) FieldLimits() map[string]int    { return map[string]int{"name": MaxName} }
func (Command) FieldLimits() map[string]int  { return map[string]int{"type": MaxName} }
func (Geofence) FieldLimits() map[string]int { return map[string]int{"name": MaxName, "area": MaxArea} }
func (Driver) FieldLimits() map[string]int {
	return map[string]int{"name": MaxName, "uniqueId": MaxUniqueID}
}

func (ComputedAttribute) FieldLimits() map[string]int {
	return map[string]int{"attribute": MaxAttributeName, "expression": MaxExpression, "type": MaxName}
}

func (Calendar) FieldLimits() map[string]int { return map[string]int{"name": MaxName} }
func (Maintenance) FieldLimits() map[string]int {
	return map[string]int{"name": MaxName, "type": MaxAttributeName}
}

func (Notification) FieldLimits() map[string]int {
	return map[string]int{"type": MaxName, "description": MaxName, "notificators": MaxName}
}

func (Report) FieldLimits() map[string]int {
	return map[string]int{"type": MaxName, "description": MaxName}
}

func (Server) FieldLimits() map[string]int {
	return map[string]int{"map": MaxName, "bingKey": MaxName, "version": MaxName, "coordinateFormat": MaxName}
}
