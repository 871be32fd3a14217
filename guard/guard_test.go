package guard

import (
	"strings"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// script builds a recording with the generator's event builder.
type script struct {
	t   *testing.T
	b   *gen.Builder
	evs []model.Event
}

func newScript(t *testing.T) *script {
	return &script{t: t, b: gen.NewBuilder(1, gen.DefaultStart(), gen.DefaultEnvironment())}
}

func (s *script) add(raw []byte) {
	s.t.Helper()
	ev, err := model.Decode(raw)
	if err != nil {
		s.t.Fatal(err)
	}
	s.evs = append(s.evs, ev)
}

// call makes one LLM step running cmd, with its stats and result.
func (s *script) call(cmd string) {
	r := s.b.CallLLM(time.Second, 40, "", "")
	s.add(s.b.Stats())
	a := s.b.Terminal(r, cmd, 0, "run "+cmd, "LOW")
	s.add(a.Raw)
	s.add(s.b.TerminalResult(a, "ok", 0))
}

// trips folds evs and evaluates rules after each event, returning every
// report.
func trips(t *testing.T, rules []string, evs []model.Event) []Report {
	t.Helper()
	rs, err := ParseAll(rules)
	if err != nil {
		t.Fatal(err)
	}
	set := New(rs)
	st := reducer.Initial(nil, 0)
	var out []Report
	for i, ev := range evs {
		st = reducer.ApplyAt(st, i, ev)
		out = append(out, set.Observe(i, ev, &st)...)
	}
	return out
}

// firstWhere is the index of the first event after which cond holds of
// the fold.
func firstWhere(evs []model.Event, cond func(st reducer.State) bool) int {
	st := reducer.Initial(nil, 0)
	for i, ev := range evs {
		st = reducer.ApplyAt(st, i, ev)
		if cond(st) {
			return i
		}
	}
	return -1
}

func TestCountersTripWhereTheStatePassesTheLimit(t *testing.T) {
	evs := testevents.Generated(t, 400, 11)
	cases := []struct {
		rule string
		cond func(reducer.State) bool
	}{
		{"steps>20:pause", func(st reducer.State) bool { return st.Steps > 20 }},
		{"cost>0.5", func(st reducer.State) bool { return st.Metrics.Combined.CostUSD > 0.5 }},
		{"tokens>200k", func(st reducer.State) bool { u := st.Metrics.Combined; return u.Prompt+u.Completion > 200_000 }},
		{"calls>7", func(st reducer.State) bool { return st.Metrics.Combined.LLMCalls > 7 }},
		{"context>20%", func(st reducer.State) bool {
			u := st.Metrics.Combined
			return u.ContextWindow > 0 && 100*float64(u.ContextUsed)/float64(u.ContextWindow) > 20
		}},
	}
	for _, c := range cases {
		want := firstWhere(evs, c.cond)
		if want < 0 {
			t.Fatalf("%s: the generated recording never passes the limit", c.rule)
		}
		got := trips(t, []string{c.rule}, evs)
		if len(got) != 1 || got[0].Kind != Tripped || got[0].Index != want || got[0].EventID != evs[want].ID {
			t.Errorf("%s: reports %+v, want one trip at event %d", c.rule, got, want)
		}
	}
}

func TestSameEventsTripAtTheSameEvent(t *testing.T) {
	evs := testevents.Generated(t, 300, 5)
	a := trips(t, []string{"steps>10:pause", "cost>0.2"}, evs)
	b := trips(t, []string{"steps>10:pause", "cost>0.2"}, evs)
	if len(a) != 2 || len(b) != 2 || a[0].Index != b[0].Index || a[1].Index != b[1].Index {
		t.Errorf("two evaluations differ: %+v / %+v", a, b)
	}
}

func TestRepeatCountsTheSameCallInARow(t *testing.T) {
	s := newScript(t)
	s.add(s.b.User("go"))
	s.call("ls")
	s.call("make test")
	s.call("make test")
	s.call("make test") // the third in a row
	got := trips(t, []string{"repeat>2:interrupt"}, s.evs)
	if len(got) != 1 || s.evs[got[0].Index].Kind != model.KindAction || got[0].Index != len(s.evs)-2 {
		t.Fatalf("repeat trips %+v, want at the third make test (event %d)", got, len(s.evs)-2)
	}
}

func TestErrorsIdleAndDuration(t *testing.T) {
	s := newScript(t)
	s.add(s.b.User("go"))
	s.add(s.b.Status(model.StatusRunning))
	s.call("ls")
	r := s.b.CallLLM(time.Second, 10, "", "")
	bad := s.b.BadCall(r, "terminal", "{")
	s.add(bad.Raw)
	s.add(s.b.AgentError(bad, "bad arguments"))
	s.b.Advance(20 * time.Minute)
	s.call("ls -la") // 20 minutes after the one before
	got := trips(t, []string{"errors>0", "idle>10m:pause", "duration>15m"}, s.evs)
	if len(got) != 3 {
		t.Fatalf("reports %+v", got)
	}
	if s.evs[got[0].Index].Kind != model.KindAgentError || got[0].Rule.Metric != Errors {
		t.Errorf("errors trips at %s", s.evs[got[0].Index].Kind)
	}
	if got[1].Rule.Metric != Idle || got[1].Value < 20*60 || got[2].Rule.Metric != Duration || got[1].Index != got[2].Index {
		t.Errorf("idle and duration trip %+v", got[1:])
	}
}

func TestTripsOnceAndReArmsAtTheNextMultipleAfterAResume(t *testing.T) {
	s := newScript(t)
	s.add(s.b.User("go"))
	s.add(s.b.Status(model.StatusRunning))
	for range 4 {
		s.call("step")
	}
	s.add(s.b.Status(model.StatusPaused))
	s.add(s.b.Status(model.StatusRunning))
	for range 4 {
		s.call("step")
	}
	got := trips(t, []string{"steps>3:pause"}, s.evs)
	if len(got) != 2 || got[0].Limit != 3 || got[1].Limit != 6 {
		t.Fatalf("reports %+v, want one at 3 and, after the resume, one at 6", got)
	}
}

func TestCostWithoutAPriceSaysSoOnce(t *testing.T) {
	unpriced := func(prompt int64) model.Event {
		return model.Event{ID: "stats", Kind: model.KindStateUpdate, Body: &model.StateUpdate{Key: "stats",
			Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{"default": {ModelName: "local",
				Accumulated: model.TokenUsage{Prompt: prompt, Completion: 10}}}}}}
	}
	evs := []model.Event{unpriced(1000), unpriced(2000), unpriced(3000)}
	got := trips(t, []string{"cost>1:pause", "tokens>2500"}, evs)
	if len(got) != 2 || got[0].Kind != CannotJudge || got[0].Index != 0 || !strings.Contains(got[0].Note, "tokens are known: 1.01k") {
		t.Fatalf("reports %+v, want one note that cost cannot be judged", got)
	}
	if got[1].Kind != Tripped || got[1].Rule.Metric != Tokens || got[1].Index != 2 {
		t.Errorf("the tokens guard: %+v", got[1])
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Rule{
		"cost>5:pause":         {Cost, 5, Pause, "cost>5:pause"},
		"cost>$0.5":            {Cost, 0.5, Notify, "cost>$0.5"},
		"tokens>2M":            {Tokens, 2e6, Notify, "tokens>2M"},
		"idle>10m:notify":      {Idle, 600, Notify, "idle>10m:notify"},
		"context>90%":          {Context, 90, Notify, "context>90%"},
		" repeat>3:INTERRUPT ": {Repeat, 3, Interrupt, "repeat>3:INTERRUPT"},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "cost", "cost>", "cost>-1", "cost>abc", "speed>3", "steps>2.5", "steps>3:stop", "context>120%", "idle>soon", "cost>NaN"} {
		_, err := Parse(bad)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %v, want a one-line error", bad, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		m    Metric
		v    float64
		want string
	}{{Cost, 4.1, "$4.10"}, {Tokens, 1_234_567, "1.23M"}, {Steps, 21, "21"}, {Context, 85.4, "85%"}} {
		if got := Format(c.m, c.v); got != c.want {
			t.Errorf("Format(%s, %g) = %q, want %q", c.m, c.v, got, c.want)
		}
	}
	if Short(Cost, 5) != "$5" {
		t.Errorf("Short(cost, 5) = %q", Short(Cost, 5))
	}
}

// TestTakeOverArmsNewRulesAndKeepsOldOnes: a rule added midway that is
// already past its limit trips at the next event; a rule that was there
// before and tripped stays tripped.
func TestTakeOverArmsNewRulesAndKeepsOldOnes(t *testing.T) {
	old := New(mustRules(t, "steps>1:pause"))
	st := reducer.State{Status: model.StatusRunning, Steps: 3}
	ev := model.Event{ID: "e0"}
	if reps := old.Observe(0, ev, &st); len(reps) != 1 {
		t.Fatalf("old set: %d reports, want a trip", len(reps))
	}
	set := New(mustRules(t, "steps>1:pause", "steps>2"))
	set.Observe(0, ev, &st) // the catch-up: both past their limits
	set.TakeOver(old)
	gs := set.Guards()
	if !gs[0].Tripped || gs[1].Tripped || gs[1].Next != 2 {
		t.Fatalf("after TakeOver: %+v", gs)
	}
	st.Steps = 4
	reps := set.Observe(1, model.Event{ID: "e1"}, &st)
	if len(reps) != 1 || reps[0].Rule.Text != "steps>2" || reps[0].EventID != "e1" {
		t.Fatalf("next event: %+v, want steps>2 to trip at e1", reps)
	}
}

func mustRules(t *testing.T, specs ...string) []Rule {
	t.Helper()
	rules, err := ParseAll(specs)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestPairShowsEnoughDigits: a trip never reads as a value equal to its
// limit (it once read "$5.00 > $5.00").
func TestPairShowsEnoughDigits(t *testing.T) {
	for _, tc := range []struct {
		m          Metric
		v, limit   float64
		want, wlim string
	}{
		{Cost, 5.01, 5, "$5.01", "$5.00"},
		{Cost, 5.004, 5, "$5.004", "$5.000"},
		{Cost, 6.5, 5, "$6.50", "$5.00"},
		{Tokens, 1_200_001, 1_200_000, "1200001", "1200000"},
		{Context, 85.4, 85, "85.4%", "85.0%"},
		{Duration, 600.2, 600, "600.2s", "600.0s"},
	} {
		v, l := Pair(tc.m, tc.v, tc.limit)
		if v != tc.want || l != tc.wlim {
			t.Errorf("Pair(%s, %g, %g) = %q > %q, want %q > %q", tc.m, tc.v, tc.limit, v, l, tc.want, tc.wlim)
		}
	}
}
