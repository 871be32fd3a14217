package fleet

// Placed is an item's index and how deep under its parents it sits.
type Placed struct{ Index, Depth int }

// Nest orders n items so that each follows its parent, one level deeper,
// siblings in index order; items at the top level keep their index order.
// parent(i) is the index of i's parent, or -1 for an item at the top level
// (none, or a parent that is not among the items). Items whose parents
// form a cycle are placed at the top level rather than lost: every item is
// placed exactly once. The fleet table and `ls` both place forks and
// delegated conversations under their parents with it.
func Nest(n int, parent func(i int) int) []Placed {
	up := make([]int, n) // -1 at the top level
	children := make(map[int][]int)
	for i := range n {
		p := parent(i)
		if p < 0 || p >= n || p == i {
			up[i] = -1
			continue
		}
		up[i] = p
		children[p] = append(children[p], i)
	}
	out := make([]Placed, 0, n)
	done := make([]bool, n)
	var walk func(i, depth int)
	walk = func(i, depth int) {
		if done[i] {
			return
		}
		done[i] = true
		out = append(out, Placed{i, depth})
		for _, c := range children[i] {
			walk(c, depth+1)
		}
	}
	for i := range n {
		if up[i] < 0 || inCycle(up, i) {
			walk(i, 0)
		}
	}
	return out
}

// inCycle reports whether following parents from i never reaches the top
// level (a cycle on the way).
func inCycle(up []int, i int) bool {
	for slow, fast := i, i; ; {
		if fast = up[fast]; fast < 0 {
			return false
		}
		if fast = up[fast]; fast < 0 {
			return false
		}
		if slow = up[slow]; slow == fast {
			return true
		}
	}
}
