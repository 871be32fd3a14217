package guard

import (
	"math"
	"time"

	"ohwatch/model"
	"ohwatch/reducer"
)

// ReportKind says what a Report is.
type ReportKind int

const (
	// Tripped: a rule's metric passed its limit.
	Tripped ReportKind = iota
	// CannotJudge: a rule cannot be evaluated on this conversation (a cost
	// guard when no price is reported); said once per rule.
	CannotJudge
)

// Report is a rule that tripped at an event, or that says once it cannot
// judge the conversation.
type Report struct {
	Kind  ReportKind
	Rule  Rule
	Value float64 // the metric's value at the event
	Limit float64 // the limit it passed (a multiple of Rule.Limit once re-armed)
	// Index and EventID are the event the rule was evaluated after.
	Index   int
	EventID string
	// Note says why a CannotJudge rule cannot judge.
	Note string
}

// Guard is one rule and where it stands: armed at Next, or tripped.
type Guard struct {
	Rule Rule
	// Next is the limit the rule trips at: Rule.Limit, then after a trip
	// and a resume the next multiple of it above the value.
	Next float64
	// Tripped is true from a trip until the run is resumed.
	Tripped bool
	// Value is the metric's latest value; Known says whether it could be
	// judged at all.
	Value float64
	Known bool
	said  bool // CannotJudge reported
}

// Set is the guards of one conversation, evaluated event after event.
type Set struct {
	guards []Guard
	// repeatKey and repeatRun are the latest tool call and how many times
	// in a row it was made.
	repeatKey string
	repeatRun int
	lastTime  time.Time // the previous event's time
	runStart  time.Time // when the current run began
	status    string    // the status after the previous event
	out       []Report  // reused by Observe
}

// New makes a Set of rules, each armed at its limit.
func New(rules []Rule) *Set {
	s := &Set{guards: make([]Guard, len(rules)), status: model.StatusIdle}
	for i, r := range rules {
		s.guards[i] = Guard{Rule: r, Next: r.Limit}
	}
	return s
}

// Guards are the guards as they stand, for a header or a list. The slice
// is the Set's own: read it, never keep it across Observe calls.
func (s *Set) Guards() []Guard {
	if s == nil {
		return nil
	}
	return s.guards
}

// Len is the number of rules.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.guards)
}

// Observe evaluates every rule after event ev (index i of the log) whose
// State is st, and returns what tripped or what cannot be judged. A rule
// trips once; when the run resumes after a pause (paused → running) a
// tripped rule re-arms at the next multiple of its limit (a $5 budget
// becomes $10), or for idle at its limit again. The returned slice is
// reused by the next call.
func (s *Set) Observe(i int, ev model.Event, st *reducer.State) []Report {
	if s == nil || len(s.guards) == 0 {
		return nil
	}
	s.out = s.out[:0]
	gap := s.track(ev, st)
	resumed := s.status == model.StatusPaused && st.Status == model.StatusRunning
	s.status = st.Status
	for k := range s.guards {
		g := &s.guards[k]
		v, known, note := s.value(g.Rule.Metric, ev, st, gap, g.said)
		g.Value, g.Known = v, known
		if resumed && g.Tripped {
			g.rearm()
		}
		if !known {
			if note != "" && !g.said {
				g.said = true
				s.out = append(s.out, Report{Kind: CannotJudge, Rule: g.Rule, Index: i, EventID: ev.ID, Note: note})
			}
			continue
		}
		if !g.Tripped && v > g.Next {
			g.Tripped = true
			s.out = append(s.out, Report{Kind: Tripped, Rule: g.Rule, Value: v, Limit: g.Next, Index: i, EventID: ev.ID})
		}
	}
	return s.out
}

// Tick evaluates the idle rules with the time since the last event
// arrived, for a live watch between events. It trips only while running.
func (s *Set) Tick(since time.Duration) []Report {
	if s == nil || s.status != model.StatusRunning {
		return nil
	}
	s.out = s.out[:0]
	for k := range s.guards {
		g := &s.guards[k]
		if g.Rule.Metric != Idle || g.Tripped {
			continue
		}
		g.Value, g.Known = since.Seconds(), true
		if g.Value > g.Next {
			g.Tripped = true
			s.out = append(s.out, Report{Kind: Tripped, Rule: g.Rule, Value: g.Value, Limit: g.Next, Index: -1})
		}
	}
	return s.out
}

// rearm sets the next limit after a resume.
func (g *Guard) rearm() {
	g.Tripped = false
	switch {
	case g.Rule.Metric == Idle:
		g.Next = g.Rule.Limit
		return
	case g.Rule.Limit == 0:
		g.Next = g.Value // any more trips it again
		return
	}
	g.Next = (math.Floor(g.Value/g.Rule.Limit) + 1) * g.Rule.Limit
}

// track updates what the State does not carry: the run of equal tool
// calls and the run's start. It returns the gap since the previous event
// while running (0 when either time is unknown).
func (s *Set) track(ev model.Event, st *reducer.State) time.Duration {
	switch b := ev.Body.(type) {
	case *model.Action:
		key := b.ToolName + "\x00" + b.Command + "\x00" + ev.Summary
		if key == s.repeatKey {
			s.repeatRun++
		} else {
			s.repeatKey, s.repeatRun = key, 1
		}
	case *model.Message:
		if ev.Source == "user" {
			s.repeatKey, s.repeatRun = "", 0
		}
	}
	var gap time.Duration
	if !ev.Time.IsZero() {
		if s.status == model.StatusRunning && !s.lastTime.IsZero() {
			gap = ev.Time.Sub(s.lastTime)
		}
		if st.Status == model.StatusRunning && (s.runStart.IsZero() || newRun(s.status)) {
			s.runStart = ev.Time
		}
		s.lastTime = ev.Time
	}
	return gap
}

// value is the metric after the event, whether it can be judged, and when
// not, a note to say so once ("" to stay quiet for now, or once said).
func (s *Set) value(m Metric, ev model.Event, st *reducer.State, gap time.Duration, said bool) (float64, bool, string) {
	u := &st.Metrics.Combined
	switch m {
	case Cost:
		switch {
		case !u.CostKnown && said, !st.MetricsReported() && st.Steps > 0 && said:
			return 0, false, ""
		case st.MetricsReported() && !u.CostKnown:
			return 0, false, "cannot judge cost: the conversation reports no price (tokens are known: " + Format(Tokens, float64(u.Prompt+u.Completion)) + ")"
		case !st.MetricsReported() && st.Steps > 0:
			return 0, false, "cannot judge cost: the conversation reports no LLM usage"
		}
		return u.CostUSD, true, ""
	case Tokens:
		if !st.MetricsReported() {
			return 0, false, ""
		}
		return float64(u.Prompt + u.Completion), true, ""
	case Steps:
		return float64(st.Steps), true, ""
	case Calls:
		if !st.MetricsReported() {
			return 0, false, ""
		}
		return float64(u.LLMCalls), true, ""
	case Errors:
		return float64(st.ErrorCount), true, ""
	case Context:
		if u.ContextWindow <= 0 {
			return 0, false, ""
		}
		return 100 * float64(u.ContextUsed) / float64(u.ContextWindow), true, ""
	case Repeat:
		return float64(s.repeatRun), true, ""
	case Idle:
		return gap.Seconds(), true, ""
	case Duration:
		if s.runStart.IsZero() || ev.Time.IsZero() {
			return 0, false, ""
		}
		return ev.Time.Sub(s.runStart).Seconds(), true, ""
	}
	return 0, false, ""
}

// newRun reports whether running after status starts a new run rather than
// going on with one (after a pause or a confirmation).
func newRun(status string) bool {
	switch status {
	case model.StatusRunning, model.StatusPaused, model.StatusWaitingForConfirmation:
		return false
	}
	return true
}
