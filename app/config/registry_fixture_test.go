package config

import "time"

// testRegistry has the protocols and frame limits fleetd ships, which the
// tests name (main passes the real ones, from protocols/catalog).
var testRegistry = NewRegistry(DeviceDefaults{
	Protocols: []ProtocolDefault{{Name: "gps103", Port: 5001}, {Name: "tk103", Port: 5002}, {Name: "h02", Port: 5013}, {Name: "gt06", Port: 5023},
		{Name: "teltonika", Port: 5027}, {Name: "osmand", Port: 5055}, {Name: "watch", Port: 5093}},
	FrameTimeout: time.Minute,
	FrameBudget:  16 << 20,
})
