package config

import "time"

// DeviceFrames bounds what unfinished device frames may cost: the time a
// frame may take, and the bytes all connections may hold in them together.
type DeviceFrames struct {
	Timeout time.Duration
	Budget  int
}

// deviceLimitKeys bound the device listeners against clients that send
// frames slowly or never finish them; d has the listeners' defaults.
func deviceLimitKeys(d DeviceDefaults) []Key {
	return []Key{
		field("devices.frameTimeout", d.FrameTimeout, "A device frame must arrive whole within this time of its first byte, else its connection is closed (a watch's 128 KiB voice message takes about 30 s over GPRS).",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Devices.Frames.Timeout }, formatDuration),
		field("devices.frameBudget", d.FrameBudget, "Bytes all device connections together may hold in unfinished frames; past it the largest unfinished frame is dropped and its connection closed.",
			parseIntIn(1<<20, 1<<30), func(c *Config) *int { return &c.Devices.Frames.Budget }, asIs[int]),
	}
}
