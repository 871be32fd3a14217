package reducer

import "ohwatch/model"

// kindCounts counts the events of each kind of model.Kinds in a fixed
// array, indexed by model.KindIndex, so counting never allocates; any
// other kind goes to a small shared table.
type kindCounts [model.NumKinds]int32

// countKind counts one event of kind.
func countKind(c kindCounts, other kindTable, kind string) (kindCounts, kindTable) {
	if i := model.KindIndex(kind); i >= 0 {
		c[i]++
		return c, other
	}
	return c, other.add(kind)
}

// toMap returns the counts of every kind seen, known and other.
func (c kindCounts) toMap(other kindTable) map[string]int {
	m := make(map[string]int, len(other)+8)
	kinds := model.Kinds()
	for i, n := range c {
		if n > 0 {
			m[kinds[i].Name] = int(n)
		}
	}
	return other.toMap(m)
}
