package otel

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"ohwatch/model"
	"ohwatch/reducer"
)

// Attributes of ohwatch's own, where the GenAI conventions have none.
const (
	attrTitle      = attribute.Key("ohwatch.conversation.title")
	attrStatus     = attribute.Key("ohwatch.execution_status")
	attrCost       = attribute.Key("ohwatch.cost_usd")
	attrCalls      = attribute.Key("ohwatch.llm_calls")
	attrMerged     = attribute.Key("ohwatch.llm_calls_merged")
	attrUsageID    = attribute.Key("ohwatch.usage_id")
	attrRisk       = attribute.Key("ohwatch.security_risk")
	attrSummary    = attribute.Key("ohwatch.summary")
	attrRejected   = attribute.Key("ohwatch.rejected")
	attrReason     = attribute.Key("ohwatch.rejection_reason")
	attrUnfinished = attribute.Key("ohwatch.unfinished")
	attrEventID    = attribute.Key("ohwatch.event_id")
	attrTurn       = attribute.Key("ohwatch.turn")
	attrExitCode   = attribute.Key("ohwatch.exit_code")
)

// AgentName is gen_ai.agent.name of every conversation.
const AgentName = "OpenHands"

// Options say what the spans carry.
type Options struct {
	// Content copies tool-call arguments and outputs into the tool spans
	// (gen_ai.tool.call.arguments / .result), sanitised and capped at
	// ContentCap. Off by default: outputs can hold anything.
	Content bool
	// Path is the events Export traces, a path of the log's tree; nil for
	// HEAD's path (every event of a linear log).
	Path reducer.Path
}

// Builder turns events, one at a time with the reducer's State before and
// after each, into spans. A span is started and ended as soon as the event
// that ends it arrives, with the events' own times, and handed to emit as
// it ends, so a live watch sends each span as it ends. It is not safe for
// concurrent use.
type Builder struct {
	emit    func(*span)
	traceID trace.TraceID
	convID  string
	opts    Options

	root    *span
	turn    *span // the open user turn, nil between turns
	turns   int
	pending []pendingChat
	// chats maps the llm_response_id of the recent LLM calls to their
	// spans' ids (an ended span is not kept alive), so the actions of a
	// response nest under its call. Only the recent ones are kept, in two
	// generations (see rememberChat): a response's actions follow it
	// closely.
	chats, olderChats map[string]trace.SpanID
	calls             map[string]openTool // tool_call_id -> open tool span
	actions           map[string]openTool // action event id -> open tool span
	toolSeq           int
	names             map[nameKey]spanName
	last              time.Time // time of the latest event with one
	statusAt          time.Time // time of the latest change of status
	// title is the first line of the first user message: taken from the
	// events, so a live watch (whose server may shorten its title) and a
	// replay name the trace alike.
	title    string
	finished bool
}

// pendingChat is an LLM call whose metrics arrived (a stats update, or
// the base's attribution) before the events it produced: its span waits
// for the llm_response_id of the next action, message or condensation.
type pendingChat struct {
	event      string // the id of the event whose metrics brought the call
	k          int    // the call's place among that event's calls of its usage
	start, end time.Time
	usage      reducer.Usage // the call's own figures; Merged calls share one delta
	merged     int           // >1 when one delta covers several calls
	withDelta  bool          // false for the 2nd.. calls of a merged delta
}

// newBuilder returns a builder for one conversation that hands each span
// to emit as it ends; emit owns the span from then on.
func newBuilder(emit func(*span), conversationID string, opts Options) *Builder {
	return &Builder{
		emit:    emit,
		traceID: TraceID(conversationID),
		convID:  conversationID,
		opts:    opts,
		chats:   make(map[string]trace.SpanID, recentChats),
		calls:   make(map[string]openTool),
		actions: make(map[string]openTool),
		names:   make(map[nameKey]spanName),
	}
}

// Finished reports whether Finish has ended the root span.
func (b *Builder) Finished() bool { return b.finished }

// start starts a span with the id derived from key (its parts joined), as
// a child of parent (none for the root). Its attributes are appended to
// its attrs, empty and with room for a tool span's.
func (b *Builder) start(parent trace.SpanID, name string, at time.Time, kind trace.SpanKind, key ...string) *span {
	s := spanPool.Get().(*span)
	s.traceID, s.id, s.parent, s.name, s.kind, s.start = b.traceID, spanID(key...), parent, name, kind, at
	return s
}

// named returns the span name "<op> <value>" and the sanitised value, kept
// per builder: a conversation uses a few tools and models, thousands of
// times each.
func (b *Builder) named(op, value string) (name, clean string) {
	k := nameKey{op, value}
	if n, ok := b.names[k]; ok {
		return n.name, n.clean
	}
	clean, name = line(value), op
	if value != "" {
		name += " " + clean
	}
	if len(b.names) < maxNames {
		b.names[k] = spanName{name, clean}
	}
	return name, clean
}

type nameKey struct{ op, value string }
type spanName struct{ name, clean string }

// maxNames bounds the names a builder keeps, whatever a server sends.
const maxNames = 256

// end ends a span at a time and hands it on; an ended span is left alone.
func (b *Builder) end(s *span, at time.Time) {
	if s.ended {
		return
	}
	s.end, s.ended = at, true
	b.emit(s)
}

// scope is where a span's children and events go: the open turn, else the
// root.
func (b *Builder) scope() *span {
	if b.turn != nil {
		return b.turn
	}
	return b.root
}

// Add takes event i with the State before it (prev) and after it (next).
// Pointers, not copies: a State is large and this runs for every event.
func (b *Builder) Add(i int, ev *model.Event, prev, next *reducer.State) {
	if b.finished {
		return
	}
	at := ev.Time
	if at.IsZero() || at.Before(b.last) {
		at = b.last
	}
	stepStart := b.last
	if b.root == nil {
		if at.IsZero() {
			at = time.Unix(0, 0).UTC()
		}
		stepStart = at
		b.root = b.start(trace.SpanID{}, "invoke_agent "+AgentName, at, trace.SpanKindInternal, "root:", b.traceID.String())
		b.root.attrs = append(b.root.attrs,
			semconv.GenAIOperationNameInvokeAgent,
			semconv.GenAIAgentName(AgentName),
			semconv.GenAIConversationID(line(b.convID)))
	}
	b.last = at
	if next.MetricsAt == i {
		b.addCalls(ev.ID, &prev.Metrics, &next.Metrics, stepStart, at)
	}
	switch body := ev.Body.(type) {
	case *model.Message:
		if body.Role == "user" {
			if b.title == "" {
				b.title = strings.TrimPrefix(ev.Summary, "user: ")
			}
			b.startTurn(ev, at)
		} else if body.LLMResponseID != "" {
			b.resolve(body.LLMResponseID)
		}
	case *model.Action:
		b.startTool(ev, body, at)
	case *model.Observation:
		b.endObservation(ev, body, at)
	case *model.AgentError:
		if sp := b.takeTool(body.ToolCallID, ""); sp != nil {
			sp.fail(line(body.Error))
			b.end(sp, at)
		}
	case *model.UserReject:
		if sp := b.takeTool(body.ToolCallID, body.ActionID); sp != nil {
			reason := lineAttr(attrReason, body.Reason)
			sp.set(attrRejected.Bool(true), reason)
			sp.event("rejected", at, reason)
			b.end(sp, at)
		}
	case *model.Condensation:
		b.resolve(body.LLMResponseID)
		b.scope().event("condensation", at,
			attribute.Int("ohwatch.forgotten_events", len(body.ForgottenIDs)), attrEventID.String(line(ev.ID)))
	}
	if n := next.ErrorCount - prev.ErrorCount; n > 0 {
		errs := next.Errors()
		for _, e := range errs[max(0, len(errs)-n):] {
			b.addException(e.Kind, e.Text, at)
		}
	}
	// A change of confirmation policy, not its first report: a recording
	// knows its policy from the start, a live watch from its first snapshot.
	if next.ConfirmationPolicy != prev.ConfirmationPolicy && prev.ConfirmationPolicy != "" && next.ConfirmationPolicy != "" {
		b.scope().event("confirmation_policy", at, attribute.String("ohwatch.policy", line(next.ConfirmationPolicy)))
	}
	if next.StatusAt == i && next.Status != prev.Status {
		b.statusChange(prev, next, at)
	}
}

// AddLog builds the whole of a recorded log (the events of Options.Path,
// else of HEAD's path) and finishes it: a recording ends where it ends, so
// its root is never marked unfinished. It folds the events in order rather
// than asking the log for each State.
func (b *Builder) AddLog(log *reducer.Log) {
	p := b.opts.Path
	if p == nil {
		p = log.HeadPath()
	}
	s := log.Initial()
	for st := range log.Walk(p) {
		b.Add(st.Index, &st.Event, &st.Before, &st.After)
		s = st.After
	}
	b.Finish(s, false)
}

// addCalls queues a chat span for every LLM call the metrics gained at
// this event. One call per usage is exact; when one update adds several
// calls of a usage (a snapshot after a gap), the first span carries their
// summed figures and says how many calls it covers, the others carry none:
// the totals stay right and no per-call number is invented.
func (b *Builder) addCalls(eventID string, before, after *reducer.Metrics, start, end time.Time) {
	for _, u := range after.ByUsage {
		old := usageOf(before, u.UsageID)
		n := u.LLMCalls - old.LLMCalls
		if n <= 0 {
			continue
		}
		d := reducer.Usage{
			UsageID:    u.UsageID,
			Model:      u.Model,
			CostUSD:    u.CostUSD - old.CostUSD,
			CostKnown:  u.CostKnown,
			Prompt:     u.Prompt - old.Prompt,
			Completion: u.Completion - old.Completion,
			CacheRead:  u.CacheRead - old.CacheRead,
			CacheWrite: u.CacheWrite - old.CacheWrite,
			Reasoning:  u.Reasoning - old.Reasoning,
			LLMCalls:   n,
		}
		for k := range n {
			b.pending = append(b.pending, pendingChat{
				event: eventID, k: k,
				start: start, end: end, usage: d, merged: n, withDelta: k == 0,
			})
		}
	}
}

func usageOf(m *reducer.Metrics, id string) reducer.Usage {
	for _, u := range m.ByUsage {
		if u.UsageID == id {
			return u
		}
	}
	return reducer.Usage{}
}

// resolve gives the oldest pending call the response id of the event that
// just arrived, and emits every pending call. A response id already seen
// (a second action of the same response) changes nothing.
func (b *Builder) resolve(responseID string) {
	if len(b.pending) == 0 {
		return
	}
	if _, seen := b.chat(responseID); seen {
		return
	}
	b.flush(responseID)
}

// chat returns the span id of a recent LLM call by its response id.
func (b *Builder) chat(responseID string) (trace.SpanID, bool) {
	if id, ok := b.chats[responseID]; ok {
		return id, true
	}
	id, ok := b.olderChats[responseID]
	return id, ok
}

// flush emits the pending chat spans; the first gets responseID ("" when
// none is known).
func (b *Builder) flush(responseID string) {
	if len(b.pending) == 0 {
		return
	}
	parent := b.scope().id
	for k, c := range b.pending {
		name, model := b.named("chat", c.usage.Model)
		var num [20]byte
		sp := b.start(parent, name, c.start, trace.SpanKindClient,
			"chat:", c.event, ":", c.usage.UsageID, ":", string(strconv.AppendInt(num[:0], int64(c.k), 10)))
		attrs := append(sp.attrs,
			semconv.GenAIOperationNameChat,
			semconv.GenAIRequestModel(model),
			attrUsageID.String(line(c.usage.UsageID)))
		rid := ""
		if k == 0 {
			rid = responseID
		}
		if rid != "" {
			attrs = append(attrs, semconv.GenAIResponseID(line(rid)))
		}
		if c.withDelta {
			u := c.usage
			attrs = append(attrs,
				semconv.GenAIUsageInputTokens(int(u.Prompt)),
				semconv.GenAIUsageOutputTokens(int(u.Completion)),
				semconv.GenAIUsageCacheReadInputTokens(int(u.CacheRead)),
				semconv.GenAIUsageCacheCreationInputTokens(int(u.CacheWrite)),
				semconv.GenAIUsageReasoningOutputTokens(int(u.Reasoning)))
			if u.CostKnown {
				attrs = append(attrs, attrCost.Float64(u.CostUSD))
			}
			if c.merged > 1 {
				attrs = append(attrs, attrMerged.Int(c.merged))
			}
		}
		sp.attrs = attrs
		b.end(sp, c.end)
		if rid != "" {
			b.rememberChat(rid, sp.id)
		}
	}
	b.pending = b.pending[:0]
}

// recentChats is how many LLM calls' span ids the builder remembers at
// least (and at most twice as many).
const recentChats = 256

// rememberChat records a call's span. When the current generation is full
// it becomes the older one and the one before is dropped whole, so a long
// conversation's builder stays small without deleting ids one by one.
func (b *Builder) rememberChat(responseID string, id trace.SpanID) {
	if len(b.chats) >= recentChats {
		// The older generation's map, emptied, takes the new one: a
		// cleared map keeps its room.
		if b.olderChats == nil {
			b.olderChats = make(map[string]trace.SpanID, recentChats)
		}
		clear(b.olderChats)
		b.olderChats, b.chats = b.chats, b.olderChats
	}
	b.chats[responseID] = id
}

// startTurn ends the open turn and starts one at a user message.
func (b *Builder) startTurn(ev *model.Event, at time.Time) {
	b.flush("")
	b.endTurn(at)
	b.turns++
	b.turn = b.start(b.root.id, "user_turn", at, trace.SpanKindInternal, "turn:", ev.ID)
	b.turn.attrs = append(b.turn.attrs,
		attrTurn.Int(b.turns), attrEventID.String(line(ev.ID)), lineAttr(attrSummary, ev.Summary))
}

func (b *Builder) endTurn(at time.Time) {
	if b.turn != nil {
		b.end(b.turn, at)
		b.turn = nil
	}
}

// startTool starts an execute_tool span under the chat span of the action's
// LLM response (the turn when that call has no span).
func (b *Builder) startTool(ev *model.Event, a *model.Action, at time.Time) {
	if a.LLMResponseID != "" {
		b.resolve(a.LLMResponseID)
	}
	parent := b.scope().id
	if id, ok := b.chat(a.LLMResponseID); ok && a.LLMResponseID != "" {
		parent = id
	}
	tool := a.ToolName
	if tool == "" {
		tool = a.ActionKind
	}
	name, clean := b.named("execute_tool", tool)
	sp := b.start(parent, name, at, trace.SpanKindInternal, "tool:", ev.ID)
	attrs := append(sp.attrs,
		semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName(clean),
		semconv.GenAIToolCallID(line(a.ToolCallID)),
		semconv.GenAIToolType("function"),
		attrRisk.String(line(a.SecurityRisk)),
		attrEventID.String(line(ev.ID)),
		lineAttr(attrSummary, ev.Summary))
	if b.opts.Content {
		if args := actionArguments(ev); args != "" {
			attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(args))
		}
	}
	sp.attrs = attrs
	t := openTool{span: sp, callID: a.ToolCallID, actionID: ev.ID, seq: b.toolSeq}
	b.toolSeq++
	if t.callID != "" {
		if old, ok := b.calls[t.callID]; ok { // a reused call id: close the older span
			b.forget(old)
			old.span.set(attrUnfinished.Bool(true))
			b.end(old.span, at)
		}
		b.calls[t.callID] = t
	}
	b.actions[t.actionID] = t
}

// openTool is a tool span waiting for its result, found by its call id or
// its action's event id.
type openTool struct {
	span             *span
	callID, actionID string
	seq              int // start order, so unfinished spans end in a fixed order
}

// takeTool returns and forgets the open tool span of a call.
func (b *Builder) takeTool(callID, actionID string) *span {
	var t openTool
	ok := false
	if callID != "" {
		t, ok = b.calls[callID]
	}
	if !ok {
		if t, ok = b.actions[actionID]; !ok {
			return nil
		}
	}
	b.forget(t)
	return t.span
}

func (b *Builder) forget(t openTool) {
	if t.callID != "" && b.calls[t.callID].span == t.span {
		delete(b.calls, t.callID)
	}
	delete(b.actions, t.actionID)
}

// endObservation ends a tool span at its observation; an error observation
// sets the span's status to error with its message.
func (b *Builder) endObservation(ev *model.Event, o *model.Observation, at time.Time) {
	sp := b.takeTool(o.ToolCallID, o.ActionID)
	if sp == nil {
		return
	}
	if o.ExitCode != nil {
		sp.set(attrExitCode.Int(*o.ExitCode))
	}
	if b.opts.Content {
		if out := observationText(ev); out != "" {
			sp.set(semconv.GenAIToolCallResultKey.String(out))
		}
	}
	if o.IsError {
		sp.fail(line(ev.Summary))
	}
	b.end(sp, at)
}

// addException records an error as an exception event of the open scope.
func (b *Builder) addException(kind, msg string, at time.Time) {
	b.scope().event("exception", at, semconv.ExceptionType(line(kind)), semconv.ExceptionMessage(line(msg)))
}

// statusChange records a change of execution status as a span event and
// ends the turn at a terminal or waiting status.
func (b *Builder) statusChange(prev, next *reducer.State, at time.Time) {
	sp := b.scope()
	// Where the status came from (a per-field update, a snapshot) is left
	// out: a live watch sees snapshots a recording does not have, and the
	// two must give identical spans.
	b.statusAt = at
	sp.event("execution_status", at,
		attribute.String("ohwatch.from", line(prev.Status)),
		attrStatus.String(line(next.Status)))
	switch next.Status {
	case model.StatusWaitingForConfirmation:
		sp.event("confirmation_requested", at, attribute.Int("ohwatch.pending_actions", len(next.Pending)))
		b.flush("")
		b.endTurn(at)
	case model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusPaused:
		b.flush("")
		b.endTurn(at)
	}
}

// Finish ends every open span and the root, with the conversation's
// totals as of final and its title. unfinished marks a trace whose conversation had not
// reached a terminal state when the watch ended; the spans still open are
// marked too. Nothing is emitted for a conversation without events.
func (b *Builder) Finish(final reducer.State, unfinished bool) {
	if b.finished || b.root == nil {
		b.finished = true
		return
	}
	b.finished = true
	b.flush("")
	open := make([]openTool, 0, len(b.actions))
	for _, t := range b.actions {
		open = append(open, t)
	}
	slices.SortFunc(open, func(x, y openTool) int { return x.seq - y.seq })
	for _, t := range open {
		b.forget(t)
		t.span.set(attrUnfinished.Bool(true))
		b.end(t.span, b.last)
	}
	if b.turn != nil {
		b.turn.set(attrUnfinished.Bool(unfinished))
	}
	b.endTurn(b.last)
	attrs := []attribute.KeyValue{attrStatus.String(line(final.Status)), attrUnfinished.Bool(unfinished)}
	if b.title != "" {
		attrs = append(attrs, lineAttr(attrTitle, b.title))
	}
	if c := final.Metrics.Combined; c.LLMCalls > 0 {
		attrs = append(attrs,
			semconv.GenAIUsageInputTokens(int(c.Prompt)),
			semconv.GenAIUsageOutputTokens(int(c.Completion)),
			semconv.GenAIUsageCacheReadInputTokens(int(c.CacheRead)),
			semconv.GenAIUsageCacheCreationInputTokens(int(c.CacheWrite)),
			semconv.GenAIUsageReasoningOutputTokens(int(c.Reasoning)),
			attrCalls.Int(c.LLMCalls))
		if c.CostKnown {
			attrs = append(attrs, attrCost.Float64(c.CostUSD))
		}
		if c.Model != "" {
			attrs = append(attrs, semconv.GenAIRequestModel(line(c.Model)))
		}
	}
	b.root.set(attrs...)
	switch final.Status {
	case model.StatusError, model.StatusStuck:
		msg := final.Status
		if errs := final.Errors(); len(errs) > 0 {
			msg = errs[len(errs)-1].Text
		}
		b.root.fail(line(msg))
	}
	// A conversation that ended ends when its status changed to the final
	// one, not at what trails it (a live watch's confirming snapshot, a
	// last stats update), so that a live watch and a replay agree.
	end := b.last
	switch final.Status {
	case model.StatusFinished, model.StatusError, model.StatusStuck:
		if !b.statusAt.IsZero() {
			end = b.statusAt
		}
	}
	b.end(b.root, end)
}

// Terminal reports whether a live conversation has reached a state that
// ends its root span: error or stuck, or a finished that is confirmed.
func Terminal(s *reducer.State) bool {
	switch s.Status {
	case model.StatusError, model.StatusStuck:
		return true
	case model.StatusFinished:
		return s.StatusConfirmed
	}
	return false
}
