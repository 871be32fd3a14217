package cli

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ohwatch/client/files"
	"ohwatch/reducer"
)

// branchedRecording generates a conversation navigated back three times and
// returns its directory and log.
func branchedRecording(t *testing.T) (string, *reducer.Log) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "conv")
	if code, _, errs := runCmd(t, nil, "gen", dir, "--events", "1500", "--seed", "4", "--branches", "3"); code != 0 {
		t.Fatalf("gen: %d %s", code, errs)
	}
	conv, err := files.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	if len(log.BranchPoints()) != 3 {
		t.Fatalf("branch points %v", log.BranchPoints())
	}
	return dir, log
}

// pathCase is a command's extra arguments and the tip of the path it must
// follow.
type pathCase struct {
	args []string
	tip  int
}

// headOrBranch are the two ways to read a branched recording: HEAD's path
// by default, and --branch through the first event HEAD left.
func headOrBranch(t *testing.T, log *reducer.Log) []pathCase {
	t.Helper()
	tip, first := abandoned(t, log)
	return []pathCase{{nil, log.Head()}, {[]string{"--branch", first}, tip}}
}

// abandoned is the first event of the first branch HEAD left.
func abandoned(t *testing.T, log *reducer.Log) (int, string) {
	t.Helper()
	for _, b := range log.Branches(log.BranchPoints()[0]) {
		if !b.Head {
			return b.Tip, log.Event(b.First).ID
		}
	}
	t.Fatal("no branch off HEAD's path")
	return 0, ""
}

func TestStateFollowsHeadOrTheBranch(t *testing.T) {
	dir, log := branchedRecording(t)
	tip, first := abandoned(t, log)
	for _, tt := range []struct {
		name string
		args []string
		tip  int
		head bool
	}{
		{"HEAD by default", nil, log.Head(), true},
		{"an abandoned branch", []string{"--branch", first}, tip, false},
		{"an event on HEAD's path", []string{"--branch", log.Event(log.HeadPath().At(10)).ID}, log.Head(), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCmd(t, nil, append([]string{"state", dir, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var doc struct {
				Events int `json:"events"`
				At     int `json:"at"`
				Steps  int `json:"steps"`
				Branch struct {
					Tip        string `json:"tip_event_id"`
					Head       bool   `json:"head"`
					PathEvents int    `json:"path_events"`
					Updates    int    `json:"state_updates"`
				} `json:"branch"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			want := log.At(tt.tip)
			nodes, updates := log.PathNodes(log.Path(tt.tip))
			if doc.Events != log.Len() || doc.At != log.Path(tt.tip).Len() || doc.Branch.PathEvents != nodes ||
				doc.Branch.Updates != updates || doc.At != nodes+updates ||
				doc.Branch.Tip != log.Event(log.NodeTip(log.Path(tt.tip))).ID || doc.Branch.Head != tt.head || doc.Steps != want.Steps {
				t.Fatalf("state %+v, want the path to %d (%d events, %d steps)", doc, tt.tip, log.Path(tt.tip).Len(), want.Steps)
			}
		})
	}
	// --at counts along the path.
	code, out, _ := runCmd(t, nil, "state", dir, "--json", "--branch", first, "--at", "5")
	if code != 0 || !strings.Contains(out, `"at": 5`) {
		t.Fatalf("--at on a branch: %d %s", code, out)
	}
	code, out, _ = runCmd(t, nil, "state", dir)
	if code != 0 || !regexp.MustCompile(`\(HEAD: \d+ events, \d+ state updates\); 1500 in all, 3 branch points`).MatchString(out) {
		t.Fatalf("text: %s", out)
	}
}

func TestExportFollowsTheBranch(t *testing.T) {
	dir, log := branchedRecording(t)
	for _, tt := range headOrBranch(t, log) {
		code, out, errs := runCmd(t, nil, append([]string{"export", dir, "--format", "jsonl"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		want := log.Path(tt.tip).Indices()
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<24)
		k := 0
		for sc.Scan() {
			var ev struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			if k >= len(want) || ev.ID != log.Event(want[k]).ID {
				t.Fatalf("line %d is %s, not the path's event %d", k, ev.ID, k)
			}
			k++
		}
		if k != len(want) {
			t.Fatalf("%d lines for a path of %d", k, len(want))
		}
		code, md, _ := runCmd(t, nil, append([]string{"export", dir, "--format", "md"}, tt.args...)...)
		if code != 0 || !strings.Contains(md, "| events | "+strconv.Itoa(len(want))+" |") {
			t.Fatalf("markdown does not count the path's %d events", len(want))
		}
	}
}

func TestExportOTLPFollowsTheBranch(t *testing.T) {
	dir, log := branchedRecording(t)
	tip, first := abandoned(t, log)
	code, head, errs := runCmd(t, nil, "export", dir, "--format", "otlp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, other, _ := runCmd(t, nil, "export", dir, "--format", "otlp", "--branch", first)
	if code != 0 {
		t.Fatal(code)
	}
	// Spans name the events they come from: HEAD's trace leaves out the
	// abandoned branch, the branch's trace holds some of it.
	inHead, inOther := 0, 0
	for _, i := range log.Path(tip).Indices() {
		if log.HeadPath().Contains(i) {
			continue
		}
		id := log.Event(i).ID
		if strings.Contains(head, id) {
			inHead++
		}
		if strings.Contains(other, id) {
			inOther++
		}
	}
	if inHead != 0 || inOther == 0 {
		t.Fatalf("events of the abandoned branch: %d in HEAD's trace, %d in the branch's", inHead, inOther)
	}
}

func TestReplayHeadlessFollowsTheBranch(t *testing.T) {
	dir, log := branchedRecording(t)
	for _, tt := range headOrBranch(t, log) {
		_, out, errs := runCmd(t, nil, append([]string{"replay", dir, "--headless", "--json"}, tt.args...)...)
		if n := strings.Count(out, `{"type":"event"`); n != log.Path(tt.tip).Len() {
			t.Fatalf("%v: %d event lines for a path of %d\n%s", tt.args, n, log.Path(tt.tip).Len(), errs)
		}
	}
}
