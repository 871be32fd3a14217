package guard

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// Fleet judges every conversation of a fleet on its own events, in the
// order they arrive, each once (an event a reconnect sends again is not
// counted twice).
type Fleet struct {
	rules []Rule
	per   map[model.ConversationRef]*fleetConv
}

// fleetConv is one conversation's guards and the fold they judge.
type fleetConv struct {
	set   *Set
	state reducer.State
	ids   model.IDSet
}

// FleetReport is a report about one conversation of a fleet, with its
// status once the update that brought the event was folded: a watchdog
// acts only on a run still in progress.
type FleetReport struct {
	Report
	Ref    model.ConversationRef
	Status string
}

// NewFleet judges a fleet by rules; nil without rules.
func NewFleet(rules []Rule) *Fleet {
	if len(rules) == 0 {
		return nil
	}
	return &Fleet{rules: rules, per: map[model.ConversationRef]*fleetConv{}}
}

// Apply folds the events of ups and returns the reports they raise.
func (f *Fleet) Apply(ups []model.FleetUpdate) []FleetReport {
	if f == nil {
		return nil
	}
	var out []FleetReport
	for i := range ups {
		u := &ups[i]
		if u.Ref.ID == "" || len(u.Batch.Events) == 0 {
			continue
		}
		c := f.per[u.Ref]
		if c == nil {
			c = &fleetConv{set: New(f.rules), state: reducer.Initial(nil, 0)}
			f.per[u.Ref] = c
		}
		first := len(out)
		for _, ev := range u.Batch.Events {
			if !c.ids.Add(ev.ID) {
				continue
			}
			n := c.state.Applied
			c.state = reducer.Apply(c.state, ev)
			for _, rep := range c.set.Observe(n, ev, &c.state) {
				out = append(out, FleetReport{Report: rep, Ref: u.Ref})
			}
		}
		for k := first; k < len(out); k++ {
			out[k].Status = c.state.Status
		}
	}
	return out
}

// Status is the status of ref as the guards' fold has it ("" when it
// brought no event yet).
func (f *Fleet) Status(ref model.ConversationRef) string {
	if f == nil || f.per[ref] == nil {
		return ""
	}
	return f.per[ref].state.Status
}
