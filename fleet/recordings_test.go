package fleet

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/format"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
)

// stream cuts evs into fleet updates of one conversation the way a live
// source delivers them: a connecting state, batches of varied sizes, the
// socket going live, a reconnect that resends everything already sent, and
// at the end the state the source ends in.
func stream(ref model.ConversationRef, evs []model.Event, end model.Phase) []model.FleetUpdate {
	ups := []model.FleetUpdate{{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseConnecting}}}}
	size := 1
	for i := 0; i < len(evs); {
		j := min(i+size, len(evs))
		u := model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs[i:j]}}
		if i == 0 {
			u.Batch.Conn = &model.ConnState{Phase: model.PhaseLive}
		}
		ups = append(ups, u)
		i, size = j, size%3+1
	}
	// A reconnect resends the history: every event is a duplicate.
	ups = append(ups,
		model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1}}},
		model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs, Conn: &model.ConnState{Phase: end}}})
	return ups
}

// wantRow checks a row against the reducer's state of the same events.
func wantRow(t *testing.T, r Row, evs []model.Event, ended bool) {
	t.Helper()
	s := reducer.Fold(reducer.Initial(nil, 0), evs...)
	if r.Verdict != s.Verdict(ended) {
		t.Errorf("verdict %+v, want %+v", r.Verdict, s.Verdict(ended))
	}
	if r.Events != len(evs) || r.Duplicates != len(evs) {
		t.Errorf("events %d duplicates %d, want %d and %d", r.Events, r.Duplicates, len(evs), len(evs))
	}
	if r.Steps != s.Steps || r.Iteration != s.Iteration || r.Errors != s.ErrorCount {
		t.Errorf("steps %d iteration %d errors %d, want %d %d %d", r.Steps, r.Iteration, r.Errors, s.Steps, s.Iteration, s.ErrorCount)
	}
	c := s.Metrics.Combined
	if r.MetricsReported != s.MetricsReported() || r.Tokens != c.Tokens() || r.LLMCalls != c.LLMCalls ||
		r.Cost != c.CostUSD || r.CostKnown != (s.MetricsReported() && c.CostKnown) {
		t.Errorf("metrics %+v, want reported %v %+v", r, s.MetricsReported(), c)
	}
	var last time.Time
	for _, ev := range evs {
		if ev.Time.After(last) {
			last = ev.Time
		}
	}
	if !r.LastActivity.Equal(last) {
		t.Errorf("last activity %v, want %v", r.LastActivity, last)
	}
	wantPending := 0
	if s.Status == model.StatusWaitingForConfirmation {
		wantPending = len(s.Pending)
	}
	if r.Pending != wantPending {
		t.Errorf("pending %d, want %d", r.Pending, wantPending)
	}
}

func TestRecordingsRowEqualsReducer(t *testing.T) {
	for _, dir := range upstream.Trajectories(t) {
		name := filepath.Base(dir)
		for _, end := range []model.Phase{model.PhaseLive, model.PhaseDone} {
			t.Run(name+"/"+end.String(), func(t *testing.T) {
				evs := testevents.Recorded(t, dir)
				ref := model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: name}
				f := New()
				// Another conversation in the same slices must not mix in.
				other := testevents.Twin(t, "simple_echo_hello_world")
				oref := model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: "other"}
				ups := interleave(stream(ref, evs, end), stream(oref, other, model.PhaseLive))
				for len(ups) > 0 {
					n := min(3, len(ups))
					f.Apply(ups[:n])
					ups = ups[n:]
				}
				r, ok := f.Row(ref)
				if !ok {
					t.Fatal("no row")
				}
				wantRow(t, r, evs, end == model.PhaseDone)
				if r.Title == "" || r.Title != firstUserSummary(evs) {
					t.Errorf("title %q, want the first user message %q", r.Title, firstUserSummary(evs))
				}
				if r.Conn.Phase != end || ColConn.Text(r, time.Time{}) != end.String() {
					t.Errorf("connection %v %q", r.Conn.Phase, ColConn.Text(r, time.Time{}))
				}
				for _, c := range []Column{ColTokens, ColCalls, ColCost} {
					if got := c.Text(r, time.Time{}); got != format.Unknown {
						t.Errorf("%s reads %q for a recording that reports no metrics, want unknown", c.Name(), got)
					}
				}
				if r2, _ := f.Row(oref); r2.Events != len(other) {
					t.Errorf("the other conversation has %d events, want %d", r2.Events, len(other))
				}
			})
		}
	}
}

func TestGeneratedRowEqualsReducer(t *testing.T) {
	evs := testevents.Generated(t, 3000, 7)
	ref := model.ConversationRef{Source: "http://server", Kind: model.SourceServer, ID: "gen"}
	f := New()
	f.Apply(stream(ref, evs, model.PhaseLive))
	r, _ := f.Row(ref)
	wantRow(t, r, evs, false)
	if !r.MetricsReported || r.Tokens == 0 || r.LLMCalls == 0 {
		t.Fatalf("a generated conversation reports metrics: %+v", r)
	}
	if got, want := ColTokens.Text(r, time.Time{}), format.Count(r.Tokens); got != want {
		t.Errorf("tokens read %q, want %q", got, want)
	}
}

func interleave(a, b []model.FleetUpdate) []model.FleetUpdate {
	var out []model.FleetUpdate
	for len(a) > 0 || len(b) > 0 {
		if len(a) > 0 {
			out, a = append(out, a[0]), a[1:]
		}
		if len(b) > 0 {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

func firstUserSummary(evs []model.Event) string {
	for _, ev := range evs {
		if _, ok := ev.Body.(*model.Message); ok && ev.Source == "user" {
			return strings.TrimPrefix(ev.Summary, "user: ")
		}
	}
	return ""
}

// TestFixtureRowEqualsReducer is TestRecordingsRowEqualsReducer over the
// project's own recordings (in every clone): a recording without status
// updates, one with confirmations, a rejection, an error and a
// condensation, and one with unknown kinds, each beside another
// conversation in the same slices.
func TestFixtureRowEqualsReducer(t *testing.T) {
	t.Parallel()
	other := testevents.Recorded(t, fixtures.Path(t, fixtures.SDK))
	for _, name := range []string{fixtures.CLI, fixtures.Situations, fixtures.Unknown} {
		for _, end := range []model.Phase{model.PhaseLive, model.PhaseDone} {
			t.Run(name+"/"+end.String(), func(t *testing.T) {
				evs := testevents.Recorded(t, fixtures.Path(t, name))
				ref := model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: name}
				oref := model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: "other"}
				f := New()
				ups := interleave(stream(ref, evs, end), stream(oref, other, model.PhaseLive))
				for len(ups) > 0 {
					n := min(3, len(ups))
					f.Apply(ups[:n])
					ups = ups[n:]
				}
				r, ok := f.Row(ref)
				if !ok {
					t.Fatal("no row")
				}
				wantRow(t, r, evs, end == model.PhaseDone)
				// A long first message is cut to the title's width.
				if title := strings.TrimSuffix(r.Title, "…"); title == "" || !strings.HasPrefix(firstUserSummary(evs), title) {
					t.Errorf("title %q, want the first user message %q", r.Title, firstUserSummary(evs))
				}
				if r2, _ := f.Row(oref); r2.Events != len(other) {
					t.Errorf("the other conversation has %d events, want %d", r2.Events, len(other))
				}
			})
		}
	}
}
