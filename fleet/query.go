package fleet

import (
	"cmp"
	"slices"
	"strings"
)

// Query says which rows a listing holds and in what order.
type Query struct {
	// Sort is the column to order by; Desc reverses it.
	Sort Column
	Desc bool
	// Text keeps the rows whose title, id, source or status contains it,
	// in any case ("" keeps all).
	Text string
	// Status keeps the rows of that status ("finished", "running", …), or
	// those that need attention for StatusAttention ("" keeps all).
	Status string
	// BySource groups the rows that need no attention by their source.
	BySource bool
}

// StatusAttention is the Query.Status that keeps the rows needing a
// person.
const StatusAttention = "attention"

// Group is a run of rows under one heading.
type Group struct {
	// Name is "attention", a source's label when grouping by source, or
	// "" for the one group of all other rows.
	Name string
	// Attention is set for the group of rows that need a person, which
	// always comes first.
	Attention bool
	Rows      []Row
}

// AttentionGroup is the name of the group of rows that need a person.
const AttentionGroup = "attention"

// Rows lists the fleet by q: first the rows that need a person
// (most urgent first, then by the sort column), then the others, grouped by
// source when asked; a fork or a delegation follows its parent, one level
// deeper, when both are in the same group. Empty groups are left out.
func (f *Fleet) Rows(q Query) []Group {
	needle := strings.ToLower(q.Text)
	var attn, rest []Row
	for _, e := range f.order {
		r := e.row()
		if !r.matches(needle, q.Status) {
			continue
		}
		if r.Attn != NoAttention {
			attn = append(attn, r)
		} else {
			rest = append(rest, r)
		}
	}
	order := func(a, b Row) int {
		d := q.Sort.Compare(a, b)
		if q.Desc {
			d = q.Sort.Compare(b, a)
		}
		return d
	}
	var out []Group
	if len(attn) > 0 {
		slices.SortFunc(attn, func(a, b Row) int {
			if d := cmp.Compare(a.Attn, b.Attn); d != 0 {
				return d
			}
			return order(a, b)
		})
		out = append(out, Group{Name: AttentionGroup, Attention: true, Rows: attn})
	}
	if len(rest) == 0 {
		return out
	}
	if !q.BySource {
		return append(out, Group{Rows: nest(rest, order)})
	}
	bySource := map[string][]Row{}
	var names []string
	for _, r := range rest {
		name := SourceLabel(r.Ref)
		if _, ok := bySource[name]; !ok {
			names = append(names, name)
		}
		bySource[name] = append(bySource[name], r)
	}
	slices.Sort(names)
	for _, name := range names {
		out = append(out, Group{Name: name, Rows: nest(bySource[name], order)})
	}
	return out
}

// matches reports whether the row passes the text and status filters;
// needle is already lower case.
func (r Row) matches(needle, status string) bool {
	switch status {
	case "":
	case StatusAttention:
		if r.Attn == NoAttention {
			return false
		}
	default:
		if r.Verdict.Status != status {
			return false
		}
	}
	if needle == "" {
		return true
	}
	for _, s := range []string{r.Title, r.Ref.ID, SourceLabel(r.Ref), r.Verdict.Short()} {
		if strings.Contains(strings.ToLower(s), needle) {
			return true
		}
	}
	return false
}

// nest sorts rows and places each fork or delegation right after its
// parent (same source, same group), one level deeper, its siblings in sort
// order. A row whose parent is not among rows stays at the top level; rows
// that name each other as parents (a cycle) are listed at the top level
// too, never lost.
func nest(rows []Row, order func(a, b Row) int) []Row {
	slices.SortFunc(rows, order)
	type key struct{ source, id string }
	at := make(map[key]int, len(rows))
	for i, r := range rows {
		at[key{r.Ref.Source, r.Ref.ID}] = i
	}
	placed := Nest(len(rows), func(i int) int {
		r := rows[i]
		if p, ok := at[key{r.Ref.Source, r.ParentID}]; ok && r.ParentID != "" {
			return p
		}
		return -1
	})
	out := make([]Row, len(placed))
	for k, p := range placed {
		out[k] = rows[p.Index]
		out[k].Depth = p.Depth
	}
	return out
}

// Flatten is every row of the groups, in order.
func Flatten(groups []Group) []Row {
	var out []Row
	for _, g := range groups {
		out = append(out, g.Rows...)
	}
	return out
}
