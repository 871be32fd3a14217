package conversation

import "ohwatch/model"

// A rejected action can leave branch points: the rejection follows the
// action, and the run goes on from the action or the rejection under a
// parent_id of its own (the run went on beside the rejection). Nobody
// navigated, so "HEAD's branch" and the ⑂ marks would come from nowhere:
// the header says which action was rejected and that the run branches
// there.

// rejectBranch is the rejected action the header explains, cached for
// one log version.
type rejectBranch struct {
	valid   bool
	version uint64
	at      int // the rejected action; -1 for none
}

// rejectedBranchPoint is the action rejected at the newest branch point a
// rejection made: the point is the rejection itself, or one of its
// children is. ok is false when every branch point was made otherwise (a
// navigation, a fork), which the header words as before.
func (m *Conversation) rejectedBranchPoint() (at int, ok bool) {
	c := &m.tree.reject
	if v := m.Log.Version(); !c.valid || c.version != v {
		c.valid, c.version, c.at = true, v, -1
		points := m.branchPoints()
		for k := len(points) - 1; k >= 0 && c.at < 0; k-- {
			p := points[k]
			if a, ok := m.rejectedAction(p); ok {
				c.at = a
				break
			}
			for _, ch := range m.Log.Children(p) {
				if a, ok := m.rejectedAction(ch); ok {
					c.at = a
					break
				}
			}
		}
	}
	return c.at, c.at >= 0
}

// rejectedAction is the action event i rejected, when i is a rejection;
// the rejection itself when the log does not hold the action.
func (m *Conversation) rejectedAction(i int) (int, bool) {
	ev := m.Log.Event(i)
	r, ok := ev.Body.(*model.UserReject)
	if !ok {
		return 0, false
	}
	if a, found := m.Log.IndexOf(r.ActionID); found {
		return a, true
	}
	return i, true
}
