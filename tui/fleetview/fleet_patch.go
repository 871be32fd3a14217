package fleetview

import (
	"cmp"
	"slices"

	"ohwatch/fleet"
	"ohwatch/model"
)

// patchLimit is the share of the rows a slice may touch for patch to
// re-place them: past it, arranging every row again costs no more.
const patchLimit = 16

// touchedBy is the conversations a slice of updates is about.
func touchedBy(ups []model.FleetUpdate) map[model.ConversationRef]bool {
	out := make(map[model.ConversationRef]bool, len(ups))
	for i := range ups {
		if ups[i].Ref.ID != "" {
			out[ups[i].Ref] = true
		}
	}
	return out
}

// patch re-places only the rows of the conversations a slice touched:
// their old rows leave, their new ones are merged in by the sort order, in
// one pass over the rows. With a hundred thousand rows and a few
// conversations streaming, a frame then costs a pass, not a sort of every
// row. It reports false, changing nothing, when it cannot keep the order
// arrange would give (a filter or grouping by source is on, a fork or
// delegation is involved, many rows changed): arrange then runs.
func (f *Fleet) patch(touched map[model.ConversationRef]bool) bool {
	q := f.query
	if !f.patchable || q.BySource || q.Text != "" || q.Status != "" || len(touched)*patchLimit > len(f.rows) {
		return false
	}
	var attn, rest []fleet.Row
	for ref := range touched {
		r, ok := f.fleet.Row(ref)
		if !ok || r.ParentID != "" || f.parents[ref] {
			return false
		}
		if r.Attn != fleet.NoAttention {
			attn = append(attn, r)
		} else {
			rest = append(rest, r)
		}
	}
	order := func(a, b *fleet.Row) int {
		if q.Desc {
			return q.Sort.Compare(*b, *a)
		}
		return q.Sort.Compare(*a, *b)
	}
	attnOrder := func(a, b *fleet.Row) int {
		if d := cmp.Compare(a.Attn, b.Attn); d != 0 {
			return d
		}
		return order(a, b)
	}
	slices.SortFunc(attn, func(a, b fleet.Row) int { return attnOrder(&a, &b) })
	slices.SortFunc(rest, func(a, b fleet.Row) int { return order(&a, &b) })
	out := f.spare[:0]
	merge := func(old []fleet.Row, fresh []fleet.Row, by func(a, b *fleet.Row) int) {
		j := 0
		for i := range old {
			if touched[old[i].Ref] {
				continue
			}
			for j < len(fresh) && by(&fresh[j], &old[i]) < 0 {
				out = append(out, fresh[j])
				j++
			}
			out = append(out, old[i])
		}
		out = append(out, fresh[j:]...)
	}
	nAttn := f.attnRows()
	merge(f.rows[:nAttn], attn, attnOrder)
	split := len(out)
	merge(f.rows[nAttn:], rest, order)
	f.spare, f.rows = f.rows, out
	clear(f.heads)
	if split > 0 {
		f.heads[0] = fleet.Group{Name: fleet.AttentionGroup, Attention: true, Rows: f.rows[:split]}
		if split < len(f.rows) {
			f.heads[split] = fleet.Group{Rows: f.rows[split:]}
		}
	}
	f.place()
	return true
}

// attnRows is the number of rows in the attention group, which comes
// first.
func (f *Fleet) attnRows() int {
	if g, ok := f.heads[0]; ok && g.Attention {
		return len(g.Rows)
	}
	return 0
}

// notePatchable records, after a full arrange, whether patch may follow
// it: no row nested under another, and the conversations that are parents.
func (f *Fleet) notePatchable() {
	f.patchable = true
	clear(f.parents)
	if f.parents == nil {
		f.parents = map[model.ConversationRef]bool{}
	}
	for i := range f.rows {
		r := &f.rows[i]
		if r.Depth > 0 {
			f.patchable = false
		}
		if r.ParentID != "" {
			f.parents[model.ConversationRef{Source: r.Ref.Source, Kind: r.Ref.Kind, ID: r.ParentID}] = true
		}
	}
}
