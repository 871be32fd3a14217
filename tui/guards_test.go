package tui

import (
	"strings"
	"testing"

	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/reducer"
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
	full := waitingLog(t)
	steer := &fakeSteering{}
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Controls: steer,
		Guards: guardSet(t, "steps>0:pause", "errors>5")}, 160, 48)
	var evs []model.Event
	for i := 0; i < full.Len()-1; i++ {
		evs = append(evs, full.Event(i))
	}
	m = runCmd(t, m, m.Update(batchMsg{batch: model.Batch{Events: evs}}))
	if steer.got() != "pause" {
		t.Fatalf("the guard sent %q", steer.got())
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
	m := newModel(Options{Log: errorLog(t), Guards: guardSet(t, "errors>1:interrupt")}, 160, 48)
	m = runCmd(t, m, m.Init())
	if s := screen(m); !strings.Contains(s, "guard errors>1:interrupt tripped at #") || !strings.Contains(s, "would interrupt here (dry run") {
		t.Fatalf("no dry-run banner:\n%s", s)
	}
}
