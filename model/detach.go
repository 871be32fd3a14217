package model

import "ohwatch/internal/arena"

// Detached returns a copy of ev whose strings no longer share the memory
// of its Raw: every string that aliases Raw (see alias) is copied, all of
// them into one new block, and the bodies holding them are copied too, so
// ev itself is left as it was. Raw is kept.
//
// Whoever keeps a few strings of an event (a reducer State keeps ids,
// tool names and summaries) keeps the whole block its Raw was read into: a
// loader's segment of megabytes. A log that stores the raw bytes elsewhere
// folds the detached copy, so what its States keep is a few bytes each.
func (ev Event) Detached() Event {
	if len(ev.Raw) == 0 {
		return ev
	}
	d := detacher{lo: arena.Addr(ev.Raw)}
	d.hi = d.lo + uintptr(len(ev.Raw))
	// Count, changing nothing. The header's strings (an id, nearly always)
	// are in ev itself; only a body holding some is copied and visited
	// again. A stats update's names are interned by the decoder, so its
	// body, copied whole, was most of the cost of detaching one.
	d.header(&ev)
	headerNeed := d.need
	d.body(ev.Body)
	if d.need == 0 {
		return ev
	}
	bodyMoves := d.need > headerNeed
	d.block = make([]byte, 0, d.need)
	d.header(&ev) // move
	if bodyMoves {
		ev.Body = copyBody(ev.Body)
		d.body(ev.Body)
	}
	return ev
}

// detacher visits an event's strings twice: first to count the bytes of
// those that alias [lo, hi), then (with block allocated) to move them.
type detacher struct {
	lo, hi uintptr
	need   int
	block  []byte
}

// str counts or moves one string.
func (d *detacher) str(s *string) {
	if len(*s) == 0 {
		return
	}
	p := arena.StringAddr(*s)
	if p < d.lo || p >= d.hi {
		return
	}
	if d.block == nil {
		d.need += len(*s)
		return
	}
	at := len(d.block)
	d.block = append(d.block, *s...)
	*s = arena.String(d.block[at : at+len(*s)])
}

// strs visits a list of strings; when moving, into a copy of the list.
func (d *detacher) strs(list *[]string) {
	if d.block != nil && len(*list) > 0 {
		*list = append([]string(nil), *list...)
	}
	for k := range *list {
		d.str(&(*list)[k])
	}
}

// tasks visits a task list; when moving, into a copy of the list.
func (d *detacher) tasks(list *[]Task) {
	if d.block != nil && len(*list) > 0 {
		*list = append([]Task(nil), *list...)
	}
	for k := range *list {
		t := &(*list)[k]
		d.str(&t.Title)
		d.str(&t.Notes)
		d.str(&t.Status)
	}
}

// header visits the strings an Event holds itself.
func (d *detacher) header(ev *Event) {
	d.str(&ev.Kind)
	d.str(&ev.ID)
	d.str(&ev.Source)
	d.str(&ev.ParentID)
	d.str(&ev.Summary)
}

// body visits the strings of a body (when moving, a copy of it).
func (d *detacher) body(body Body) {
	switch b := body.(type) {
	case *Action:
		d.str(&b.ActionKind)
		d.str(&b.ToolName)
		d.str(&b.ToolCallID)
		d.str(&b.LLMResponseID)
		d.str(&b.SecurityRisk)
		d.str(&b.Command)
		d.str(&b.TaskCommand)
		d.tasks(&b.Plan)
	case *Observation:
		d.str(&b.ObservationKind)
		d.str(&b.ToolName)
		d.str(&b.ToolCallID)
		d.str(&b.ActionID)
		d.str(&b.TaskCommand)
		d.tasks(&b.TaskList)
	case *UserReject:
		d.str(&b.ToolName)
		d.str(&b.ToolCallID)
		d.str(&b.ActionID)
		d.str(&b.Reason)
		d.str(&b.RejectionSource)
	case *AgentError:
		d.str(&b.ToolName)
		d.str(&b.ToolCallID)
		d.str(&b.Error)
		d.str(&b.Classification)
	case *Message:
		d.str(&b.Role)
		d.str(&b.LLMResponseID)
		d.str(&b.Sender)
	case *SystemPrompt:
		d.strs(&b.Tools)
	case *StateUpdate:
		d.str(&b.Key)
		d.str(&b.ExecutionStatus)
		d.str(&b.ConfirmationPolicy)
		d.str(&b.LeafEventID)
		d.stats(&b.Stats)
	case *ConversationError:
		d.str(&b.Code)
		d.str(&b.Detail)
	case *Condensation:
		d.strs(&b.ForgottenIDs)
		d.str(&b.LLMResponseID)
	case *Hook:
		d.str(&b.HookEventType)
		d.str(&b.ToolName)
	case *ACPToolCall:
		d.str(&b.ToolCallID)
		d.str(&b.Title)
		d.str(&b.Status)
	case *ServerError:
		d.str(&b.Code)
		d.str(&b.Detail)
	case *LLMCompletionLog:
		d.str(&b.ModelName)
		d.str(&b.UsageID)
	case *Unknown:
		d.str(&b.Reason)
	}
}

// stats visits a stats update; when moving, into a copy of it.
func (d *detacher) stats(sp **Stats) {
	if *sp == nil {
		return
	}
	if d.block == nil {
		for k, m := range (*sp).UsageToMetrics {
			d.str(&k)
			if m != nil {
				d.metrics(m)
			}
		}
		return
	}
	c := &Stats{UsageToMetrics: make(map[string]*Metrics, len((*sp).UsageToMetrics))}
	for k, m := range (*sp).UsageToMetrics {
		d.str(&k)
		if m != nil {
			mc := *m
			mc.Costs = append([]Cost(nil), m.Costs...)
			mc.Latencies = append([]Latency(nil), m.Latencies...)
			mc.TokenUsages = append([]TokenUsage(nil), m.TokenUsages...)
			d.metrics(&mc)
			m = &mc
		}
		c.UsageToMetrics[k] = m
	}
	*sp = c
}

// metrics visits one usage's metrics (already copied when moving).
func (d *detacher) metrics(m *Metrics) {
	d.str(&m.ModelName)
	d.str(&m.Accumulated.Model)
	d.str(&m.Accumulated.ResponseID)
	for k := range m.Costs {
		d.str(&m.Costs[k].Model)
	}
	for k := range m.Latencies {
		d.str(&m.Latencies[k].Model)
		d.str(&m.Latencies[k].ResponseID)
	}
	for k := range m.TokenUsages {
		d.str(&m.TokenUsages[k].Model)
		d.str(&m.TokenUsages[k].ResponseID)
	}
}

// copyBody returns a shallow copy of a body, so that moving its strings
// leaves the original untouched. Marker bodies hold nothing to move.
func copyBody(b Body) Body {
	switch b := b.(type) {
	case *Action:
		c := *b
		return &c
	case *Observation:
		c := *b
		return &c
	case *UserReject:
		c := *b
		return &c
	case *AgentError:
		c := *b
		return &c
	case *Message:
		c := *b
		return &c
	case *SystemPrompt:
		c := *b
		return &c
	case *StateUpdate:
		c := *b
		return &c
	case *ConversationError:
		c := *b
		return &c
	case *Condensation:
		c := *b
		return &c
	case *Hook:
		c := *b
		return &c
	case *ACPToolCall:
		c := *b
		return &c
	case *ServerError:
		c := *b
		return &c
	case *LLMCompletionLog:
		c := *b
		return &c
	case *Unknown:
		c := *b
		return &c
	}
	return b
}

// Detached returns a copy of b without its Raw whose strings no longer
// share Raw's memory (the lean reader's strings point into it): what a
// listing keeps of an item for as long as the item is listed, a few
// hundred bytes, where keeping a string of it kept all of its kilobytes.
func (b *BaseState) Detached() *BaseState {
	if b == nil {
		return nil
	}
	c := *b
	c.Raw = nil
	if len(b.Raw) == 0 {
		return &c
	}
	d := detacher{lo: arena.Addr(b.Raw)}
	d.hi = d.lo + uintptr(len(b.Raw))
	visit := func() {
		d.str(&c.ID)
		d.str(&c.Title)
		d.str(&c.ExecutionStatus)
		d.str(&c.ConfirmationPolicy)
		d.str(&c.LeafEventID)
		d.stats(&c.Stats)
	}
	visit() // count
	if d.need == 0 {
		return &c
	}
	d.block = make([]byte, 0, d.need)
	visit() // move
	return &c
}
