package conversation

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/demo"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// scenario builds a model of a given size in a known state.
type scenario struct {
	name  string
	build func(t *testing.T, w, h int) *Conversation
}

// liveModel builds a live model over log that received a "connected" state.
func liveModel(t *testing.T, log *reducer.Log, w, h int, opts Options) *Conversation {
	opts.Log, opts.Live = log, true
	opts.Feed = make(chan model.Batch)
	m := newModel(opts, w, h)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
	return m
}

// demoLog is the bundled demo conversation's first n events (all when n < 0).
func demoLog(t *testing.T, n int) *reducer.Log {
	t.Helper()
	_, raws := demo.Conversation()
	if n >= 0 {
		raws = raws[:n]
	}
	log := reducer.NewLog(nil, 0)
	for _, raw := range raws {
		log.Append(tuitest.Decode(t, raw))
	}
	return log
}

func goldenScenariosOn(load tuitest.Loader) []scenario {
	return []scenario{
		{"demo_midrun", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: demoLog(t, -1), Title: "demo", Source: "replay demo"}, w, h)
			m = jumpTo(t, m, "151")
			return m
		}},
		{"demo_waiting_for_confirmation", func(t *testing.T, w, h int) *Conversation {
			return liveModel(t, demoLog(t, 236), w, h, Options{Title: "demo", Source: "ws 127.0.0.1:8000",
				Controls: &tuitest.Controls{}})
		}},
		{"replay_start", func(t *testing.T, w, h int) *Conversation {
			return newModel(Options{Log: load(t, "cli447_hi_followup_iterative_case_a"),
				Title: "cli447 follow-up", Source: "replay trajectories/cli447"}, w, h)
		}},
		{"midrun_task_plan", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: load(t, "creating_agent_plan"),
				Title: "creating agent plan", Source: "replay trajectories/creating_agent_plan"}, w, h)
			m, _ = press(t, m, "j", "j", "j")
			return m
		}},
		{"waiting_for_confirmation", func(t *testing.T, w, h int) *Conversation {
			return liveModel(t, tuitest.WaitingLogOn(t, load), w, h, Options{Title: "confirmation mode",
				Source: "ws 127.0.0.1:8000", Controls: &tuitest.Controls{}})
		}},
		{"error", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: tuitest.ErrorLogOn(t, load), Title: "hello world, then errors", Source: "replay ./errors"}, w, h)
			m, _ = press(t, m, "]", "]", "]")
			return m
		}},
		{"inspector_terminal_action", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: load(t, "simple_echo_hello_world"), Title: "hello world",
				Source: "replay trajectories/simple_echo_hello_world"}, w, h)
			m, _ = press(t, m, ":")
			m = typeText(t, m, "3")
			m, _ = press(t, m, "enter", "enter")
			return m
		}},
		{"replay_loading", func(t *testing.T, w, h int) *Conversation {
			evs := tuitest.GeneratedEvents(t, 3000, 1)
			return loadingModel(t, evs, []int{32, 64, 128}, 1000, w, h)
		}},
		{"conn_key_rejected", func(t *testing.T, w, h int) *Conversation {
			return connModel(t, w, h, false, model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth",
				Reason: "GET /api/conversations/x/events/search: 401 Unauthorized"})
		}},
		{"conn_reconnecting", func(t *testing.T, w, h int) *Conversation {
			return connModel(t, w, h, true, model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2,
				RetryIn: 1230 * time.Millisecond, Reason: "dial tcp 127.0.0.1:8000: connect: connection refused"})
		}},
		{"attention_pinned_waiting", func(t *testing.T, w, h int) *Conversation {
			full := load(t, "confirmation_mode")
			log := reducer.NewLog(nil, 0)
			for i := 0; i <= 6; i++ {
				log.Append(full.Event(i))
			}
			m := liveModel(t, log, w, h, Options{Title: "confirmation mode", Source: "ws 127.0.0.1:8000",
				Controls: &tuitest.Controls{}})
			m, _ = press(t, m, "g", "j")
			m, _ = send(m, statusBatch(t, "c0000000-0000-4000-8000-000000000001", "waiting_for_confirmation"))
			return m
		}},
		{"pinned_new_events", func(t *testing.T, w, h int) *Conversation {
			full := load(t, "cli447_hi_followup_iterative_case_a")
			log := reducer.NewLog(nil, 0)
			for i := 0; i < 8; i++ {
				log.Append(full.Event(i))
			}
			m := liveModel(t, log, w, h, Options{Title: "cli447 follow-up", Source: "ws 127.0.0.1:8000"})
			m, _ = press(t, m, "k", "k")
			var rest []model.Event
			for i := 8; i < full.Len(); i++ {
				rest = append(rest, full.Event(i))
			}
			m, _ = send(m, BatchMsg{Batch: model.Batch{Events: rest}})
			return m
		}},
	}
}

// TestGolden compares whole screens, drawn without colour, with the files
// in testdata/ (go test ./tui/conversation -update rewrites them).
func TestGolden(t *testing.T) { runGoldens(t, goldenScenariosOn(tuitest.Trajectory)) }

// goldenScenarios are the golden screens on the project's own recordings,
// for the tests that walk every screen (shape, colour) on any clone.
func goldenScenarios() []scenario { return goldenScenariosOn(tuitest.Twin) }

// TestGoldenOwn is TestGolden's screens that read a recording, on the
// project's own recordings of the same shapes (fixtures.Shapes): the
// upstream goldens above need ../shared, these run on every clone.
func TestGoldenOwn(t *testing.T) { runGoldens(t, readers(goldenScenarios())) }

// runGoldens draws every scenario at every golden size and compares it
// with its file.
func runGoldens(t *testing.T, scenarios []scenario) {
	for _, sc := range scenarios {
		for _, size := range tuitest.GoldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				m := sc.build(t, size[0], size[1])
				out := screen(m)
				tuitest.AssertScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestGoldenConfirmPrompt is the accept prompt with its warning, at both
// sizes: the warning must fit the 80-column footer.
func TestGoldenConfirmPrompt(t *testing.T) {
	t.Parallel()
	for _, src := range tuitest.Sources {
		for _, size := range tuitest.GoldenSizes {
			t.Run(fmt.Sprintf("%s%dx%d", src.Prefix, size[0], size[1]), func(t *testing.T) {
				m := liveModel(t, tuitest.WaitingLogOn(t, src.Load), size[0], size[1], Options{Title: "confirmation mode",
					Source: "ws 127.0.0.1:8000", Controls: &tuitest.Controls{}})
				m, _ = press(t, m, "a")
				out := screen(m)
				tuitest.AssertScreenShape(t, out, size[0], size[1])
				if !strings.Contains(out, "may approve them too; M asks first)") {
					t.Fatalf("the warning is cut:\n%s", out)
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}
