package model

import (
	"os"
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/sanitize"
)

// TestDecodeEveryFixtureEvent decodes every event of the project's own
// recordings (testdata/, in every clone): each decodes to its kind with a
// header, and only the unknown fixture's newer kinds are kept as unknown,
// with their raw bytes.
func TestDecodeEveryFixtureEvent(t *testing.T) {
	t.Parallel()
	dirs := []string{fixtures.SDK, fixtures.CLI, fixtures.Situations, fixtures.Unknown, fixtures.Branches}
	forks, err := filepath.Glob(filepath.Join(fixtures.Path(t, fixtures.Forks), "*"))
	if err != nil || len(forks) != 3 {
		t.Fatalf("forks fixture: %v, %d conversations", err, len(forks))
	}
	for _, f := range forks {
		dirs = append(dirs, filepath.Join(fixtures.Forks, filepath.Base(f)))
	}
	kinds := map[string]int{}
	unknown := map[string]bool{}
	for _, dir := range dirs {
		names, _ := filepath.Glob(filepath.Join(fixtures.Path(t, dir), "events", "event-*.json"))
		if len(names) == 0 {
			t.Fatalf("%s: no events", dir)
		}
		for _, name := range names {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Decode(raw)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if ev.ID == "" || ev.Time.IsZero() || ev.Source == "" {
				t.Errorf("%s: header id %q time %v source %q", name, ev.ID, ev.Time, ev.Source)
			}
			kinds[ev.Kind]++
			if u, ok := ev.Body.(*Unknown); ok {
				if dir != fixtures.Unknown {
					t.Errorf("%s: kept as unknown: %s", name, u.Reason)
				}
				unknown[ev.Kind] = true
			}
		}
	}
	for _, k := range []string{KindSystemPrompt, KindMessage, KindAction, KindObservation, KindStateUpdate,
		KindUserReject, KindAgentError, KindCondensationRequest, KindCondensation} {
		if kinds[k] == 0 {
			t.Errorf("no fixture has a %s", k)
		}
	}
	if !unknown["ReminderEvent"] {
		t.Errorf("the unknown fixture's ReminderEvent was not kept as unknown (unknown kinds %v)", unknown)
	}
}

// TestDecodeFixtureUnknownActionKinds: an action or observation kind this
// version does not know, inside a known envelope, keeps the envelope's
// kind and names the inner kind.
func TestDecodeFixtureUnknownActionKinds(t *testing.T) {
	t.Parallel()
	names, _ := filepath.Glob(filepath.Join(fixtures.Path(t, fixtures.Unknown), "events", "event-*.json"))
	var action, observation bool
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		switch b := ev.Body.(type) {
		case *Action:
			action = b.ActionKind == "TeleportAction"
		case *Observation:
			observation = b.ObservationKind == "TeleportObservation"
		}
	}
	if !action || !observation {
		t.Errorf("TeleportAction read %v, TeleportObservation read %v", action, observation)
	}
}

// checkSafe fails when s holds anything a terminal would act on: when
// sanitising it again would change it.
func checkSafe(t testing.TB, s string, multiline bool) {
	t.Helper()
	clean := sanitize.Line(s)
	if multiline {
		clean = sanitize.Text(s)
	}
	if clean != s {
		t.Fatalf("not terminal-safe: %q", s)
	}
}
