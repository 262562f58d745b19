package config

import "time"

// testRegistry has the protocols and frame limits fleetd ships, which the
// tests name (main passes the real ones, from protocols/catalog).
var testRegistry = NewRegistry(DeviceDefaults{
	Protocols: []ProtocolDefault{{"gps103", 5001}, {"tk103", 5002}, {"h02", 5013}, {"gt06", 5023},
		{"teltonika", 5027}, {"osmand", 5055}, {"watch", 5093}},
	FrameTimeout: time.Minute,
	FrameBudget:  16 << 20,
})
