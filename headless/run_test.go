package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

var seq int

func ev(t *testing.T, kind string, fields string) model.Event {
	t.Helper()
	seq++
	raw := fmt.Sprintf(`{"id":"00000000-0000-4000-8000-%012d","timestamp":"2026-01-27T03:56:%02d.000001","source":"environment",%s"kind":%q}`,
		seq, seq%60, fields, kind)
	e, err := model.Decode([]byte(raw))
	if err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return e
}

func perField(t *testing.T, status string) model.Event {
	return ev(t, "ConversationStateUpdateEvent", fmt.Sprintf(`"key":"execution_status","value":%q,`, status))
}

func fullState(t *testing.T, status string) model.Event {
	return ev(t, "ConversationStateUpdateEvent", fmt.Sprintf(`"key":"full_state","value":{"execution_status":%q},`, status))
}

func userMsg(t *testing.T, text string) model.Event {
	quoted, _ := json.Marshal(text)
	return ev(t, "MessageEvent", fmt.Sprintf(`"llm_message":{"role":"user","content":[{"type":"text","text":%s}]},`, quoted))
}

// feedOf returns a channel that yields one batch per slice and then stays
// open (a live stream that has gone quiet), or closes when closeAfter.
func feedOf(closeAfter bool, batches ...[]model.Event) <-chan model.Batch {
	ch := make(chan model.Batch, len(batches))
	for _, b := range batches {
		ch <- model.Batch{Events: b}
	}
	if closeAfter {
		close(ch)
	}
	return ch
}

func run(t *testing.T, feed <-chan model.Batch, opts Options) (Result, string) {
	t.Helper()
	var out bytes.Buffer
	opts.Out = &out
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := Run(ctx, reducer.NewLog(nil, 0), feed, opts)
	return r, out.String()
}

func TestTerminalStateRules(t *testing.T) {
	tests := []struct {
		name     string
		batches  func(t *testing.T) [][]model.Event
		closed   bool
		wantExit int
		want     []string
	}{
		{
			name: "per-field finished is provisional until full_state confirms",
			batches: func(t *testing.T) [][]model.Event {
				return [][]model.Event{
					{fullState(t, "running"), userMsg(t, "go")},
					{perField(t, "finished")},
					{fullState(t, "finished")},
				}
			},
			wantExit: ExitFinished,
			want: []string{">> execution_status=running (full_state)", ">> execution_status=finished (per-field)",
				"(provisional — awaiting full_state confirmation)", ">> execution_status=finished (full_state)",
				"terminal state reached: finished"},
		},
		{
			name: "error waits briefly for its error event in per-field shape",
			batches: func(t *testing.T) [][]model.Event {
				return [][]model.Event{{perField(t, "running")}, {perField(t, "error")}}
			},
			wantExit: ExitError,
			want:     []string{">> execution_status=error (per-field)", "terminal state reached: error"},
		},
		{
			name: "stuck ends at once in full_state shape",
			batches: func(t *testing.T) [][]model.Event {
				return [][]model.Event{{perField(t, "running")}, {fullState(t, "stuck")}}
			},
			wantExit: ExitStuck,
			want:     []string{">> execution_status=stuck (full_state)", "terminal state reached: stuck"},
		},
		{
			name: "a Stop hook reverting finished keeps the watch going",
			batches: func(t *testing.T) [][]model.Event {
				return [][]model.Event{
					{perField(t, "running")},
					{perField(t, "finished")},
					{perField(t, "running")},
					{perField(t, "finished")},
					{fullState(t, "finished")},
				}
			},
			wantExit: ExitFinished,
			want:     []string{"finished was reverted to running; still watching", "terminal state reached: finished"},
		},
		{
			name: "idle is not terminal and a closed live stream is exit 5",
			batches: func(t *testing.T) [][]model.Event {
				return [][]model.Event{{fullState(t, "idle")}}
			},
			closed:   true,
			wantExit: ExitNoTerminal,
			want:     []string{"no terminal state reached: the stream ended (last status: idle (confirmed, full_state))"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, out := run(t, feedOf(tt.closed, tt.batches(t)...), Options{})
			if r.Exit != tt.wantExit {
				t.Errorf("exit = %d, want %d\n%s", r.Exit, tt.wantExit, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestGracePeriodRESTConfirmsFinished(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		asked := 0
		opts := Options{ConfirmGrace: 10 * time.Second, Confirm: func(context.Context) (string, error) {
			asked++
			return model.StatusFinished, nil
		}}
		start := time.Now()
		r, out := run(t, feedOf(false, []model.Event{perField(t, "running")}, []model.Event{perField(t, "finished")}), opts)
		if r.Exit != ExitFinished || asked != 1 {
			t.Fatalf("exit %d, asked %d\n%s", r.Exit, asked, out)
		}
		if waited := time.Since(start); waited < 10*time.Second {
			t.Errorf("REST asked after %s, before the grace period", waited)
		}
		if !strings.Contains(out, ">> execution_status=finished (rest)") {
			t.Errorf("no REST confirmation line:\n%s", out)
		}
	})
}

func TestGracePeriodRESTDeniesFinished(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		feed := make(chan model.Batch, 4)
		feed <- model.Batch{Events: []model.Event{perField(t, "running"), perField(t, "finished")}}
		later := []model.Event{perField(t, "running"), perField(t, "error")}
		opts := Options{ConfirmGrace: time.Second, Confirm: func(context.Context) (string, error) {
			// The server says the run went on; the stream errors later.
			go func() {
				time.Sleep(5 * time.Second)
				feed <- model.Batch{Events: later}
			}()
			return model.StatusRunning, nil
		}}
		r, out := run(t, feed, opts)
		if r.Exit != ExitError {
			t.Fatalf("exit %d, want %d\n%s", r.Exit, ExitError, out)
		}
		if !strings.Contains(out, "rest reports running: finished not confirmed; still watching") {
			t.Errorf("denial not reported:\n%s", out)
		}
	})
}

func TestSnapshotBeforeGraceNeedsNoREST(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := Options{ConfirmGrace: 10 * time.Second, Confirm: func(context.Context) (string, error) {
			t.Error("REST asked although a snapshot confirmed")
			return "", nil
		}}
		r, _ := run(t, feedOf(false, []model.Event{perField(t, "finished")}, []model.Event{fullState(t, "finished")}), opts)
		if r.Exit != ExitFinished {
			t.Fatalf("exit %d", r.Exit)
		}
	})
}

func TestWatchTimeoutAndInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, out := run(t, feedOf(false, []model.Event{perField(t, "running")}), Options{WatchTimeout: 30 * time.Second})
		if r.Exit != ExitNoTerminal || !strings.Contains(out, "no terminal state within 30s") {
			t.Fatalf("exit %d\n%s", r.Exit, out)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	r := Run(ctx, reducer.NewLog(nil, 0), make(chan model.Batch), Options{Out: &out})
	if r.Exit != ExitInterrupted {
		t.Fatalf("exit %d, want %d", r.Exit, ExitInterrupted)
	}
}

func TestFinalConnectionFailureIsExit4(t *testing.T) {
	feed := make(chan model.Batch, 1)
	feed <- model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth", Reason: "authentication rejected (close 4001)"}}
	r, out := run(t, feed, Options{})
	if r.Exit != ExitUnreachable || !strings.Contains(out, "authentication rejected") {
		t.Fatalf("exit %d\n%s", r.Exit, out)
	}
}

// TestReplayExitsByFinalState runs every real recording headless: each
// ends finished;
// the final status is inferred from content and is final at the end of a
// recording, since nothing can revert it any more.
func TestReplayExitsByFinalState(t *testing.T) {
	want := map[string]int{
		"simple_echo_hello_world":             ExitFinished,
		"creating_agent_plan":                 ExitFinished,
		"cli447_hi_followup_iterative_case_a": ExitFinished,
		"confirmation_mode":                   ExitFinished,
	}
	for _, dir := range fixtures.Recordings(t) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			events := testevents.Recorded(t, dir)
			r, out := run(t, feedOf(true, events), Options{Recording: true})
			if code, ok := want[name]; ok && r.Exit != code {
				t.Errorf("exit %d, want %d (status %s)\n%s", r.Exit, code, r.Status, out)
			}
			if got := strings.Count(out, "\n  .. ") + strings.Count(out, "\n  >> "); got < len(events)-1 {
				t.Errorf("printed %d event/status lines for %d events", got, len(events))
			}
		})
	}
}

func TestJSONLinesAreValidAndInert(t *testing.T) {
	hostile := "\x1b]52;c;aGk=\x07\x1b[2J\u202eevil\r\u009b31m"
	events := []model.Event{
		perField(t, "running"),
		userMsg(t, hostile),
		ev(t, "BrandNewEvent", `"payload":{"x":`+string(mustJSON(t, hostile))+`},`),
		perField(t, "finished"),
		fullState(t, "finished"),
	}
	r, out := run(t, feedOf(false, events[:4], events[4:]), Options{JSON: true})
	if r.Exit != ExitFinished {
		t.Fatalf("exit %d\n%s", r.Exit, out)
	}
	types := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("invalid JSONL line %q: %v", line, err)
		}
		types[v["type"].(string)]++
	}
	if types["event"] != 5 || types["status"] != 3 || types["result"] != 1 || types["provisional"] != 1 {
		t.Errorf("line types = %v", types)
	}
	for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\r", "\a"} {
		if strings.Contains(out, bad) {
			t.Errorf("output carries %q from event text", bad)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConfirmedFinishedInTheMiddleOfABatchEnds checks that a confirmed
// finished is not lost when the next run's events share its batch, while a
// recovered error in the history before the first snapshot does not end
// the watch. The rest of the batch arrived before the end: it is printed
// (the result counts it).
func TestConfirmedFinishedInTheMiddleOfABatchEnds(t *testing.T) {
	history := []model.Event{perField(t, "running"), perField(t, "error"), userMsg(t, "try again"), perField(t, "running")}
	live := []model.Event{fullState(t, "running"), perField(t, "finished"), fullState(t, "finished"), userMsg(t, "next"), perField(t, "running")}
	r, out := run(t, feedOf(false, append(history, live...)), Options{})
	if r.Exit != ExitFinished {
		t.Fatalf("exit %d, want %d\n%s", r.Exit, ExitFinished, out)
	}
	if !strings.Contains(out, "user: next") || r.Events != len(history)+len(live)-2 {
		t.Errorf("the events after the terminal state in its batch were not printed, or not counted (%d):\n%s", r.Events, out)
	}
}

// TestErrorWaitsForItsErrorEvent: the agent-server says error before the
// ConversationErrorEvent. The watch waits for the event (a second later
// here), prints it and ends; without one it ends after ErrorGrace. Either
// way the result does not call a per-field error confirmed.
func TestErrorWaitsForItsErrorEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		feed := make(chan model.Batch, 2)
		feed <- model.Batch{Events: []model.Event{fullState(t, "running"), perField(t, "error")}}
		go func() {
			time.Sleep(time.Second)
			feed <- model.Batch{Events: []model.Event{ev(t, "ConversationErrorEvent", `"code":"LLMError","detail":"the model failed",`)}}
		}()
		r, out := run(t, feed, Options{})
		if r.Exit != ExitError || r.Confirmed || !strings.Contains(out, "the model failed") {
			t.Fatalf("exit %d confirmed %v:\n%s", r.Exit, r.Confirmed, out)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		feed := feedOf(false, []model.Event{fullState(t, "running"), perField(t, "error")})
		r, out := run(t, feed, Options{ErrorGrace: 3 * time.Second})
		if r.Exit != ExitError || time.Since(start) != 3*time.Second {
			t.Fatalf("exit %d after %s, want %d after the grace:\n%s", r.Exit, time.Since(start), ExitError, out)
		}
	})
}
