package files

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
)

// The project's own recordings (testdata/, see package fixtures) are in
// every clone: these tests read each layout the upstream-recording tests
// read, so a clone without ../shared still loads each of them.

// TestLoadFixtureLayouts loads each good fixture, from the conversation
// directory, from its events/ directory or as a JSONL file: every event
// file is one event, in index order, with no warning; the base state and
// title are read where the layout has them.
func TestLoadFixtureLayouts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events int
		base   bool
		title  string
	}{
		{fixtures.SDK, 30, true, "The balance endpoint returns the wrong total"},
		{fixtures.CLI, 20, false, "The balance endpoint returns the wrong total"},
		{fixtures.Situations, 28, true, "Clean the build and push the fix."},
		{fixtures.Unknown, 10, true, "Move the service to the new host."},
		{fixtures.Branches, 31, true, "Add a cache in front of the store."},
		{fixtures.JSONL, 20, false, "Refactor the balance handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := fixtures.Path(t, tc.name)
			paths := []string{path}
			if !strings.HasSuffix(tc.name, ".jsonl") {
				paths = append(paths, filepath.Join(path, "events"))
			}
			for _, p := range paths {
				conv := mustLoad(t, p)
				if len(conv.Warnings) != 0 {
					t.Errorf("%s: warnings %q", p, conv.Warnings)
				}
				if len(conv.Events) != tc.events || !strings.HasPrefix(conv.Title, tc.title) {
					t.Errorf("%s: %d events titled %q, want %d titled %q…", p, len(conv.Events), conv.Title, tc.events, tc.title)
				}
				if p == path && (conv.Base != nil) != tc.base {
					t.Errorf("%s: base state read %v, want %v", p, conv.Base != nil, tc.base)
				}
				for i, ev := range conv.Events {
					if ev.Kind == "" || ev.Time.IsZero() || ev.ID == "" {
						t.Errorf("%s: event %d not decoded: kind %q time %v id %q", p, i, ev.Kind, ev.Time, ev.ID)
					}
					if i > 0 && ev.Time.Before(conv.Events[i-1].Time) {
						t.Errorf("%s: event %d is older than the one before it", p, i)
					}
				}
			}
		})
	}
}

// TestLoadFixtureWithoutStatusOrBaseState: a local SDK run's recording has
// no state updates and no base_state.json, and its id is the directory's.
func TestLoadFixtureWithoutStatusOrBaseState(t *testing.T) {
	t.Parallel()
	conv := mustLoad(t, fixtures.Path(t, fixtures.CLI))
	if conv.Base != nil || conv.ID != "cli" {
		t.Errorf("base %v id %q, want none and the directory's name", conv.Base, conv.ID)
	}
	for i, ev := range conv.Events {
		if ev.Kind == model.KindStateUpdate {
			t.Fatalf("event %d is a state update", i)
		}
	}
}

// TestLoadFixtureBaseState reads base_state.json beside the events: the
// confirmation policy, the status and the id the events belong to.
func TestLoadFixtureBaseState(t *testing.T) {
	t.Parallel()
	conv := mustLoad(t, fixtures.Path(t, fixtures.Situations))
	if conv.Base == nil {
		t.Fatal("no base state")
	}
	if conv.Base.ConfirmationPolicy != "ConfirmRisky" || conv.Base.ExecutionStatus != model.StatusFinished {
		t.Errorf("base state policy %q status %q, want ConfirmRisky/finished", conv.Base.ConfirmationPolicy, conv.Base.ExecutionStatus)
	}
	if len(conv.ID) != 32 || conv.EventFiles != len(conv.Events) {
		t.Errorf("id %q, %d event files for %d events", conv.ID, conv.EventFiles, len(conv.Events))
	}
}

// TestLoadFixtureMalformed loads the malformed fixture: every good event is
// kept, every broken file (and the gap) is a warning naming it, a file
// that is no event's is passed over, and a broken base_state.json or
// meta.json costs only themselves.
func TestLoadFixtureMalformed(t *testing.T) {
	t.Parallel()
	conv := mustLoad(t, fixtures.Path(t, fixtures.Malformed))
	if len(conv.Events) != 6 || conv.Base != nil {
		t.Fatalf("%d events, base %v; want the 6 good ones and no base; warnings %q", len(conv.Events), conv.Base, conv.Warnings)
	}
	for _, want := range []string{
		"base_state.json: truncated JSON",
		"meta.json: JSON is not an object (an array)",
		"events/: index gap: event 00006 is missing",
		"events/event-00003-", "truncated JSON",
		"events/event-00004-", "JSON is not an object (an array)",
		"events/event-00005-", "empty file (0 bytes)",
	} {
		hasWarning(t, conv.Warnings, want)
	}
	if len(conv.Warnings) != 6 {
		t.Errorf("warnings %q, want 6", conv.Warnings)
	}
	for _, w := range conv.Warnings {
		if strings.Contains(w, "notanindex") {
			t.Errorf("a file that is no event's is warned about: %q", w)
		}
	}
}

// TestLoadFixtureMalformedJSONL: the good lines of a JSONL file with broken
// ones are all read, each broken line is a warning with its line number,
// and a blank line is none.
func TestLoadFixtureMalformedJSONL(t *testing.T) {
	t.Parallel()
	conv := mustLoad(t, fixtures.Path(t, fixtures.MalformedJSONL))
	if len(conv.Events) != 8 {
		t.Fatalf("%d events, want 8; warnings %q", len(conv.Events), conv.Warnings)
	}
	for _, want := range []string{
		"malformed.jsonl:3: truncated JSON",
		"malformed.jsonl:7: JSON is not an object (an array)",
		"malformed.jsonl:10: invalid JSON at offset 0",
	} {
		hasWarning(t, conv.Warnings, want)
	}
	if len(conv.Warnings) != 3 {
		t.Errorf("warnings %q, want 3", conv.Warnings)
	}
}

// TestFixtureForksRoot lists the forks fixture, a conversations root: the
// conversation and its two forks, each fork's meta.json naming the
// conversation and an event of it, and each fork starting with the
// conversation's events up to that one, byte for byte.
func TestFixtureForksRoot(t *testing.T) {
	t.Parallel()
	root := fixtures.Path(t, fixtures.Forks)
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "a root of 3 conversations") {
		t.Fatalf("Load(root) = %v, want a root of 3 conversations", err)
	}
	sums, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	var source Summary
	var forks []Summary
	for _, s := range sums {
		if len(s.Warnings) != 0 || s.Status != model.StatusFinished || !s.CostKnown {
			t.Errorf("%s: status %q cost known %v warnings %q", s.ID, s.Status, s.CostKnown, s.Warnings)
		}
		if s.ParentID == "" {
			source = s
		} else {
			forks = append(forks, s)
		}
	}
	if source.ID == "" || len(forks) != 2 {
		t.Fatalf("%d conversations, %d forks; want one source and two forks", len(sums), len(forks))
	}
	parent := mustLoad(t, source.Path)
	for _, f := range forks {
		if f.ParentID != source.ID {
			t.Errorf("fork %s: parent %s, want %s", f.ID, f.ParentID, source.ID)
		}
		at := slices.IndexFunc(parent.Events, func(ev model.Event) bool { return ev.ID == f.ForkedFromEvent })
		if at < 0 {
			t.Errorf("fork %s: forked from event %s, which its parent does not have", f.ID, f.ForkedFromEvent)
			continue
		}
		conv := mustLoad(t, f.Path)
		if conv.ParentID != source.ID || conv.ForkedFromEvent != f.ForkedFromEvent {
			t.Errorf("fork %s loads with parent %q at %q", f.ID, conv.ParentID, conv.ForkedFromEvent)
		}
		// The fork copies the branch to the fork point (state updates are
		// on no branch), then goes on with events of its own.
		var branch [][]byte
		for _, ev := range parent.Events[:at+1] {
			if ev.Kind != model.KindStateUpdate {
				branch = append(branch, ev.Raw)
			}
		}
		if len(conv.Events) <= len(branch) {
			t.Fatalf("fork %s: %d events, no more than the %d it copied", f.ID, len(conv.Events), len(branch))
		}
		for i, raw := range branch {
			if !bytes.Equal(conv.Events[i].Raw, raw) {
				t.Fatalf("fork %s: event %d is not its parent's", f.ID, i)
			}
		}
	}
}
