package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// The release, the commit and the build date, stamped by the release
// build (.goreleaser.yaml):
//
//	-ldflags "-X ohwatch/cli.version=1.0.0 -X ohwatch/cli.commit=… -X ohwatch/cli.date=…"
//
// A build without them (go build, go install from a checkout) takes the
// commit and its time from the go command's VCS stamp instead, and the
// version from the module (go install ohwatch@vX) or "dev".
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildStamp is what --version says about the binary.
type buildStamp struct {
	Version, Commit, Date, Go, Platform string
}

// readBuildInfo is the binary's build information, nil when it has none.
func readBuildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

// stamp completes the ldflags' stamp with the build information: the
// commit the go command stamped (vcs.revision, with -dirty when the tree
// had changes not committed) and its time, when the release build did not
// set them. A field nobody knows is "unknown".
func stamp(release, rev, built string, info *debug.BuildInfo) buildStamp {
	s := buildStamp{Version: release, Commit: rev, Date: built, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info != nil {
		if s.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			s.Version = strings.TrimPrefix(info.Main.Version, "v")
		}
		if info.GoVersion != "" {
			s.Go = info.GoVersion
		}
		dirty, vcsRev, vcsTime := false, "", ""
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				vcsRev = kv.Value
			case "vcs.modified":
				dirty = kv.Value == "true"
			case "vcs.time":
				vcsTime = kv.Value
			}
		}
		if s.Commit == "" && vcsRev != "" {
			s.Commit = vcsRev
			if dirty {
				s.Commit += "-dirty"
			}
			if s.Date == "" {
				s.Date = vcsTime
			}
		}
	}
	if s.Version == "" {
		s.Version = "dev"
	}
	if s.Commit == "" {
		s.Commit = "unknown"
	}
	if s.Date == "" {
		s.Date = "unknown"
	}
	return s
}

// releaseVersion is the version other parts report (the OTLP service
// version, the config's header): the release, or "dev".
func releaseVersion() string { return stamp(version, commit, date, readBuildInfo()).Version }

// versionLine is what --version and `ohwatch version` print, one line:
//
//	ohwatch 1.0.0 (commit 93343d4…, built 2026-12-07T08:00:00Z, go1.26.7, linux/amd64)
//
// A commit that is "unknown" comes from a build without VCS stamping
// (go run, or a Go environment with -buildvcs=false): 'go install
// -buildvcs=true .' stamps it.
func versionLine(s buildStamp) string {
	return "ohwatch " + s.Version + " (commit " + s.Commit + ", built " + s.Date + ", " + s.Go + ", " + s.Platform + ")"
}
