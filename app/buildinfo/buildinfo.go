// Package buildinfo names the running build, for fleetd version, the
// start-up log and the metrics: the version stamped at link time, else
// "dev" with the VCS state the Go toolchain recorded.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Version is stamped, the version set with -ldflags -X, or without one
// "dev" and the commit the binary was built from.
func Version(stamped string) string {
	if stamped != "" {
		return stamped
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return dev(info.Settings)
}

// dev is "dev" with the revision, its time and whether the tree was
// modified, as far as settings record them.
func dev(settings []debug.BuildSetting) string {
	var parts []string
	for _, s := range settings {
		switch {
		case s.Key == "vcs.revision":
			parts = append(parts, s.Value[:min(12, len(s.Value))])
		case s.Key == "vcs.time":
			parts = append(parts, s.Value)
		case s.Key == "vcs.modified" && s.Value == "true":
			parts = append(parts, "modified")
		}
	}
	if len(parts) == 0 {
		return "dev"
	}
	return "dev (" + strings.Join(parts, ", ") + ")"
}
