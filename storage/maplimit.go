package storage

import "log/slog"

// mapLimitWarn is the store size from which a 32-bit build warns: bbolt
// maps the whole file into a process address space of which about 2 GB is
// usable, so the store cannot grow much past it.
const mapLimitWarn = 1536 << 20

// MapLimited reports whether a build for goarch has that limit (the
// 32-bit ones: arm, 386).
func MapLimited(goarch string) bool { return goarch == "arm" || goarch == "386" }

// WarnNearMapLimit logs a warning and reports true when a store of size
// bytes nears what a build for goarch can map.
func WarnNearMapLimit(log *slog.Logger, size int64, goarch string) bool {
	if !MapLimited(goarch) || size < mapLimitWarn {
		return false
	}
	log.Warn("the store nears the ~2 GB a 32-bit fleetd can map: set retention.positions, or move to a 64-bit OS (arm64)",
		"sizeBytes", size, "goarch", goarch)
	return true
}
