package conversation

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

func guardSet(t *testing.T, rules ...string) *guard.Set {
	t.Helper()
	rs, err := guard.ParseAll(rules)
	if err != nil {
		t.Fatal(err)
	}
	return guard.New(rs)
}

// TestGuardPausesALiveRunAndSaysSo: a pause guard that trips on arriving
// events pauses through the view's controls, and the banner says what
// tripped and what the server did; the header shows the armed guards.
func TestGuardPausesALiveRunAndSaysSo(t *testing.T) {
	full := tuitest.WaitingLog(t)
	steer := &tuitest.Steering{}
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Controls: steer,
		Guards: guardSet(t, "steps>0:pause", "errors>5")}, 160, 48)
	var evs []model.Event
	for i := 0; i < full.Len()-1; i++ {
		evs = append(evs, full.Event(i))
	}
	m = runCmd(t, m, m.Update(BatchMsg{Batch: model.Batch{Events: evs}}))
	if steer.Got() != "pause" {
		t.Fatalf("the guard sent %q", steer.Got())
	}
	s := screen(m)
	if !strings.Contains(s, "guard steps>0:pause tripped at #") || !strings.Contains(s, "→ paused") {
		t.Fatalf("no banner for the trip:\n%s", s)
	}
	if !strings.Contains(s, "guard 0/5") {
		t.Errorf("the header does not show the armed errors guard:\n%s", s)
	}
}

// TestGuardOnARecordingIsADryRun: the same guard over a loaded recording
// sends nothing and says where it would have acted.
func TestGuardOnARecordingIsADryRun(t *testing.T) {
	m := newModel(Options{Log: tuitest.ErrorLog(t), Guards: guardSet(t, "errors>1:interrupt")}, 160, 48)
	m = runCmd(t, m, m.Init())
	if s := screen(m); !strings.Contains(s, "guard errors>1:interrupt tripped at #") || !strings.Contains(s, "would interrupt here (dry run") {
		t.Fatalf("no dry-run banner:\n%s", s)
	}
}

// TestGuardKeyListsTheArmedGuards: L opens a prompt holding the rules in
// force to edit, with where each stands, a tripped one apart.
func TestGuardKeyListsTheArmedGuards(t *testing.T) {
	m := newModel(Options{Log: tuitest.ErrorLog(t), Guards: guardSet(t, "steps>100:pause", "errors>0")}, 200, 48)
	m = runCmd(t, m, m.Init())
	press(t, m, "L")
	if got := ansi.Strip(lastRow(screen(m))); !strings.HasPrefix(got, "guards: steps>100:pause, errors>0█ ") {
		t.Errorf("the prompt does not hold the rules in force: %q", got)
	}
	s := screen(m)
	if !strings.Contains(s, "guards: steps>100:pause, errors>0") || !strings.Contains(s, "/100") ||
		!strings.Contains(s, "tripped: errors>0") {
		t.Fatalf("the prompt does not list the guards and their state:\n%s", s)
	}
}

// TestGuardKeyReplacesTheRules: a new rule replaces the set, the header
// shows it, and a rule already past its limit trips at the next event;
// empty input removes every guard.
func TestGuardKeyReplacesTheRules(t *testing.T) {
	full := tuitest.WaitingLog(t)
	steer := &tuitest.Steering{}
	feed := make(chan model.Batch)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: feed, Controls: steer,
		Guards: guardSet(t, "errors>5")}, 160, 48)
	var evs []model.Event
	for i := 0; i < full.Len()-1; i++ {
		evs = append(evs, full.Event(i))
	}
	m = runCmd(t, m, m.Update(BatchMsg{Batch: model.Batch{Events: evs}}))
	press(t, m, "L")
	press(t, m, "ctrl+u")
	typeText(t, m, "steps>0:pause")
	_, cmd := press(t, m, "enter")
	m = runCmd(t, m, cmd)
	if steer.Got() != "" {
		t.Fatalf("the new guard acted on the past: sent %q", steer.Got())
	}
	s := screen(m)
	if !strings.Contains(s, "guard 3/0") || strings.Contains(s, "/5") {
		t.Fatalf("the header does not show the new guard alone:\n%s", s)
	}
	m = runCmd(t, m, m.Update(BatchMsg{Batch: model.Batch{Events: []model.Event{full.Event(full.Len() - 1)}}}))
	if steer.Got() != "pause" {
		t.Fatalf("the new guard past its limit did not trip at the next event: sent %q", steer.Got())
	}
	press(t, m, "L", "ctrl+u", "enter")
	if m.Opts.Guards != nil || strings.Contains(screen(m), "guard ") {
		t.Fatalf("empty input left guards:\n%s", screen(m))
	}
}

// TestGuardKeyRefusesABadRule: a rule that does not parse says why in the
// footer and changes nothing.
func TestGuardKeyRefusesABadRule(t *testing.T) {
	set := guardSet(t, "errors>5")
	m := newModel(Options{Log: tuitest.ErrorLog(t), Guards: set}, 200, 48)
	m = runCmd(t, m, m.Init())
	press(t, m, "L", "ctrl+u")
	typeText(t, m, "steps>10, cost>five:pause")
	press(t, m, "enter")
	if m.Opts.Guards != set {
		t.Fatal("a bad rule changed the guards")
	}
	if s := screen(m); !strings.Contains(s, `guard "cost>five:pause"`) {
		t.Fatalf("no error for the bad rule:\n%s", s)
	}
}

// TestGuardBannerSaysWhenTheRunGoesOn: once the run a guard paused runs
// again (the rule re-armed), the banner no longer says tripped and paused.
func TestGuardBannerSaysWhenTheRunGoesOn(t *testing.T) {
	full := tuitest.WaitingLog(t)
	steer := &tuitest.Steering{}
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Controls: steer,
		Guards: guardSet(t, "steps>2:pause")}, 160, 48)
	var evs []model.Event
	for i := 0; i < full.Len()-1; i++ {
		evs = append(evs, full.Event(i))
	}
	m = runCmd(t, m, m.Update(BatchMsg{Batch: model.Batch{Events: evs}}))
	if s := screen(m); !strings.Contains(s, "tripped at #") || !strings.Contains(s, "→ paused") {
		t.Fatalf("no banner for the trip:\n%s", s)
	}
	m = runCmd(t, m, m.Update(statusBatch(t, "c0000000-0000-4000-8000-0000000000f1", "paused")))
	m = runCmd(t, m, m.Update(BatchMsg{Batch: model.Batch{Events: []model.Event{tuitest.Decode(t, []byte(tuitest.StateUpdate(
		"c0000000-0000-4000-8000-0000000000f2", "2026-01-28T14:33:37.000000", "execution_status", "running")))}}}))
	s := screen(m)
	if strings.Contains(s, "tripped") || strings.Contains(s, "→ paused") || !strings.Contains(s, "guard steps>2:pause armed again at 4") || !strings.Contains(s, "goes on since #") {
		t.Fatalf("the banner still says the run is paused:\n%s", s)
	}
	press(t, m, "L")
	if strings.Contains(screen(m), "tripped:") {
		t.Fatalf("L still lists the rule as tripped:\n%s", screen(m))
	}
}

// TestGuardKeyKeepsATypoAndPointsAtIt: a rule that does not parse keeps
// the prompt open with the edit as typed, the cursor on the bad rule, the
// mistake beside it, and the rules in force unchanged.
func TestGuardKeyKeepsATypoAndPointsAtIt(t *testing.T) {
	d := drive(t, Options{Log: tuitest.ErrorLog(t), Guards: guardSet(t, "errors>5")}, 200, 48)
	d.Press("L", "ctrl+u").Type("steps>50, cots>5:pause").Press("enter")
	// The cursor stands on the bad rule's first letter, which the prompt
	// draws in its place.
	if got := d.Row(-1); !strings.HasPrefix(got, "guards: steps>50, cots>5:pause ") {
		t.Fatalf("the edit is lost: %q", got)
	}
	// Typed there, a letter goes in before the bad rule.
	if got := d.Type("X").Row(-1); !strings.HasPrefix(got, "guards: steps>50, Xcots>5:pause ") {
		t.Errorf("the cursor is not on the bad rule: %q", got)
	}
	d.Shows(`✗ guard "cots>5:pause"`)
	// Left with esc, L offers the rules in force: unchanged.
	if got := d.Press("esc", "L").Row(-1); !strings.HasPrefix(got, "guards: errors>5█ ") {
		t.Errorf("the rules in force changed: %q", got)
	}
}
