package guard

// TakeOver makes s, a Set that has just caught up on a conversation's
// events so far, the successor of old (nil for none) when the rules are
// changed midway: a rule old also had (same text) keeps where it stood, so
// a budget that already tripped does not trip again on the run the user
// resumed; every new rule is armed at its own limit, so one already past
// it trips at the next event rather than never.
func (s *Set) TakeOver(old *Set) {
	if s == nil {
		return
	}
	for k := range s.guards {
		g := &s.guards[k]
		g.Tripped, g.Next = false, g.Rule.Limit
		for _, o := range old.Guards() {
			if o.Rule.Text == g.Rule.Text {
				g.Tripped, g.Next = o.Tripped, o.Next
				break
			}
		}
	}
}
