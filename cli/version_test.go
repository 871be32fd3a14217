package cli

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionLineNamesTheCommit: the ldflags' stamp when the release
// build set it; else the commit the go command stamped, with -dirty when
// the tree had changes not committed, and its time; a build without
// either says "unknown". Go version and platform are always there.
func TestVersionLineNamesTheCommit(t *testing.T) {
	const rev = "93343d4264ec877d6a32da7894935b4cb4243b6b"
	const when = "2026-12-07T08:00:00Z"
	stamped := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.7", Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: when}, {Key: "vcs.modified", Value: modified}}}
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		release, commit, date string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"1.2.3", "abc1234", "2026-12-01T00:00:00Z", stamped("true"), "ohwatch 1.2.3 (commit abc1234, built 2026-12-01T00:00:00Z, go1.26.7, " + platform + ")"},
		{"", "", "", stamped("false"), "ohwatch dev (commit " + rev + ", built " + when + ", go1.26.7, " + platform + ")"},
		{"1.2.3", "", "", stamped("true"), "ohwatch 1.2.3 (commit " + rev + "-dirty, built " + when + ", go1.26.7, " + platform + ")"},
		{"", "", "", &debug.BuildInfo{GoVersion: "go1.26.7", Main: debug.Module{Version: "v0.2.0"}}, "ohwatch 0.2.0 (commit unknown, built unknown, go1.26.7, " + platform + ")"},
		{"", "", "", nil, "ohwatch dev (commit unknown, built unknown, " + runtime.Version() + ", " + platform + ")"},
	} {
		if got := versionLine(stamp(c.release, c.commit, c.date, c.info)); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// TestVersionPrintsTheBinarysCommit builds ohwatch and checks that
// --version, -v and `version` print the commit the go command stamped
// into that binary (go version -m reads it back), -dirty included.
func TestVersionPrintsTheBinarysCommit(t *testing.T) {
	// Stamped when the checkout lets the go command read its VCS state;
	// else built unstamped, and then it says so.
	t.Parallel()
	bin := ohwatchBinary(t)
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	info := &debug.BuildInfo{GoVersion: runtime.Version()}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" {
			// The go command stamps a pseudo-version from a clean
			// checkout's commit ((devel) otherwise): --version says it.
			info.Main.Version = f[2]
		}
		if len(f) == 2 && f[0] == "build" {
			if k, v, ok := strings.Cut(f[1], "="); ok && strings.HasPrefix(k, "vcs") {
				info.Settings = append(info.Settings, debug.BuildSetting{Key: k, Value: v})
			}
		}
	}
	want := versionLine(stamp(version, commit, date, info))
	for _, flag := range []string{"--version", "-v", "version"} {
		got, err := exec.Command(bin, flag).Output()
		if err != nil {
			t.Fatalf("%s: %v", flag, err)
		}
		if strings.TrimSpace(string(got)) != want {
			t.Errorf("%s printed %q, want %q", flag, got, want)
		}
	}
}
