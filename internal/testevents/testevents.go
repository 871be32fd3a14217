// Package testevents decodes, for tests, recorded conversations (the
// project's own, and the shared upstream ones where they are) and
// generated ones. It sits apart from internal/upstream because it imports
// model (and gen), whose own tests import internal/upstream.
package testevents

import (
	"path/filepath"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// Recorded decodes every event of a recorded conversation directory (one
// holding events/event-NNNNN-<id>.json), in index order. A file that does
// not decode fails the test: the shared recordings are known good.
func Recorded(tb testing.TB, dir string) []model.Event {
	tb.Helper()
	raws := upstream.EventFiles(tb, dir)
	evs := make([]model.Event, 0, len(raws))
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			tb.Fatalf("%s event %d: %v", filepath.Base(dir), i, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// Twins names, for each upstream CLI trajectory, the project's own
// recording of the same shape (see internal/fixtures).
var Twins = map[string]string{
	"simple_echo_hello_world":             fixtures.Echo,
	"confirmation_mode":                   fixtures.Confirm,
	"creating_agent_plan":                 fixtures.Plan,
	"cli447_hi_followup_iterative_case_a": fixtures.Critic,
}

// Twin decodes the project's own recording of the shape of the upstream
// trajectory name: the same events, by kind, in the same order, in the
// project's words, on every clone.
func Twin(tb testing.TB, name string) []model.Event {
	tb.Helper()
	own, ok := Twins[name]
	if !ok {
		tb.Fatalf("no own recording of the shape of %s", name)
	}
	return Recorded(tb, fixtures.Path(tb, own))
}

// Generated decodes a generated conversation of n events (gen.Events with
// that seed), in order.
func Generated(tb testing.TB, n int, seed int64) []model.Event {
	tb.Helper()
	return GeneratedWith(tb, gen.Options{Events: n, Seed: seed})
}

// GeneratedWith decodes the generated conversation o describes (navigated
// o.Branches times), in order.
func GeneratedWith(tb testing.TB, o gen.Options) []model.Event {
	tb.Helper()
	evs := make([]model.Event, 0, o.Events)
	for raw := range gen.Events(o) {
		ev, err := model.Decode(raw)
		if err != nil {
			tb.Fatalf("generated event %d (seed %d): %v", len(evs), o.Seed, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// Decode decodes raw events written for a test, in order; one that does
// not decode fails the test.
func Decode(tb testing.TB, raws ...[]byte) []model.Event {
	tb.Helper()
	evs := make([]model.Event, len(raws))
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			tb.Fatalf("event %d: %v", i, err)
		}
		evs[i] = ev
	}
	return evs
}
