package cli

import (
	"runtime/debug"
)

// version is the ohwatch release; set with
// -ldflags "-X ohwatch/cli.version=…".
var version = "0.1.0-dev"

// readBuildInfo is the binary's build information, nil when it has none.
func readBuildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

// versionLine is what --version prints: the release and the commit it
// was built from (vcs.revision, with -dirty when the tree had changes
// not committed), as the go command stamped them; a build without them
// (go run, a test binary) says so.
func versionLine(release string, info *debug.BuildInfo) string {
	rev, dirty := "", false
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if rev == "" {
		return "ohwatch " + release + " (commit unknown)"
	}
	if dirty {
		rev += "-dirty"
	}
	return "ohwatch " + release + " (commit " + rev + ")"
}
