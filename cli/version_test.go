package cli

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionLineNamesTheCommit: the commit the go command stamped, with
// -dirty when the tree had changes not committed; a build without one
// says so.
func TestVersionLineNamesTheCommit(t *testing.T) {
	const rev = "93343d4264ec877d6a32da7894935b4cb4243b6b"
	stamped := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{stamped("false"), "ohwatch 1.2.3 (commit " + rev + ")"},
		{stamped("true"), "ohwatch 1.2.3 (commit " + rev + "-dirty)"},
		{&debug.BuildInfo{}, "ohwatch 1.2.3 (commit unknown)"},
		{nil, "ohwatch 1.2.3 (commit unknown)"},
	} {
		if got := versionLine("1.2.3", c.info); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
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
	info := &debug.BuildInfo{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "build" {
			if k, v, ok := strings.Cut(f[1], "="); ok && strings.HasPrefix(k, "vcs") {
				info.Settings = append(info.Settings, debug.BuildSetting{Key: k, Value: v})
			}
		}
	}
	want := versionLine(version, info)
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
