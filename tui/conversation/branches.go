package conversation

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// A conversation that was navigated or forked is a tree. The list shows
// one branch of it, the path from the root to a tip: HEAD's (what the
// server continues) unless another was picked. Branch points carry a mark
// in the list and on the scrubber; B lists the branches of the branch
// point at or before the cursor and shows the one picked; the header says
// which branch is shown and whether it is HEAD's. A linear log (every
// recording before SDK v1.31, most since) shows everything, as always.

// maxChoices is how many choices a numbered pick (B's branches, O's
// conversations) offers: one digit key each.
const maxChoices = 9

// branchView is which branch the list shows, and its path cached for one
// log version.
type branchView struct {
	// other is set when a branch other than HEAD's was picked; first is
	// its first event (the path shown is Path(Tip(first))).
	other bool
	first int

	valid   bool
	version uint64
	linear  bool
	path    reducer.Path
}

// shownPath returns the branch the list shows; linear is true when the log
// is one line and everything is shown.
func (m *Conversation) shownPath() (path reducer.Path, linear bool) {
	b := &m.tree.branch
	if v := m.Log.Version(); !b.valid || b.version != v {
		b.valid, b.version, b.linear = true, v, m.Log.Linear()
		b.path = nil
		if !b.linear {
			tip := m.Log.Head()
			if b.other {
				tip = m.Log.Tip(b.first)
			}
			b.path = m.Log.Path(tip)
		}
	}
	return b.path, b.linear
}

// onShownBranch reports whether event i is on the branch the list shows.
func (m *Conversation) onShownBranch(i int) bool {
	path, linear := m.shownPath()
	return linear || path.Contains(i)
}

// lastShownEvent is where G goes: the newest event, or the tip of another
// branch being shown.
func (m *Conversation) lastShownEvent() int {
	if path, linear := m.shownPath(); !linear && m.tree.branch.other {
		return path.Tip()
	}
	return m.Log.Len() - 1
}

// branchPoints lists the events with more than one way on; nil for a
// linear log.
func (m *Conversation) branchPoints() []int {
	if _, linear := m.shownPath(); linear {
		return nil
	}
	return m.Log.BranchPoints()
}

// branchLabel is the header's word on the branch shown: "" for a linear
// log, else whether it is HEAD's.
func (m *Conversation) branchLabel(s theme.Styles) string {
	path, linear := m.shownPath()
	if linear {
		return ""
	}
	g := s.Glyphs.MarkBranch
	if !m.tree.branch.other || path.Tip() == m.Log.Head() {
		if at, ok := m.rejectedBranchPoint(); ok {
			return s.Info.Render(g + " " + tui.Ordinal(at) + " rejected: the next step branches there")
		}
		return s.Info.Render(g + " HEAD's branch")
	}
	return s.Warn.Render(g + " not HEAD: branch to " + tui.Ordinal(path.Tip()))
}

// askBranch opens B's list: the branches of the branch point at the
// cursor, or of the last one before it on the branch shown.
func (m *Conversation) askBranch() tea.Cmd {
	path, linear := m.shownPath()
	if linear {
		return m.setFlash("no branches: this conversation was never navigated or forked")
	}
	at := -1
	for _, p := range m.Log.BranchPoints() {
		if p <= m.cursor && (p == m.cursor || path.Contains(p)) {
			at = p
		}
	}
	if at < 0 {
		return m.setFlash("no branch point at or before " + tui.Ordinal(m.cursor) + " on this branch")
	}
	m.openPrompt(Prompt{Kind: promptBranches, pick: branchChoice{at: at, choices: m.Log.Branches(at)}})
	return nil
}

// branchChoice is what B offers: the branches of event at.
type branchChoice struct {
	at      int
	choices []reducer.Branch
}

// branchPicked shows branch k of pick.
func (m *Conversation) branchPicked(pick branchChoice, k int) tea.Cmd {
	c := pick.choices[k]
	b := &m.tree.branch
	b.other, b.first, b.valid = !c.Head, c.First, false
	m.travel(c.First)
	if c.Head {
		return m.setFlash("showing HEAD's branch from " + tui.Ordinal(pick.at))
	}
	return m.setFlash("showing the branch from " + tui.Ordinal(pick.at) + " to " + tui.Ordinal(c.Tip) + " (not HEAD)")
}

// renderBranches draws B's list on the prompt line.
func (p Prompt) renderBranches(s theme.Styles, cells text.Cells, width int) string {
	b := p.pick
	items := make([]string, len(b.choices))
	for k, c := range b.choices {
		items[k] = tui.Ordinal(c.First) + "→" + tui.Ordinal(c.Tip)
		if c.Head {
			items[k] += s.Info.Render(" HEAD")
		}
	}
	return renderChoices(s, cells, "branches at "+tui.Ordinal(b.at)+":", items, width)
}

// renderChoices draws a numbered pick on the prompt line (B's branches,
// O's conversations): the heading, the first maxChoices items numbered
// from 1, an ellipsis for the rest, and how to cancel.
func renderChoices(s theme.Styles, cells text.Cells, heading string, items []string, width int) string {
	parts := []string{s.Prompt.Render(heading)}
	for k, item := range items {
		if k == maxChoices {
			parts = append(parts, s.Muted.Render("…"))
			break
		}
		parts = append(parts, s.Key.Render(strconv.Itoa(k+1))+" "+item)
	}
	parts = append(parts, s.Muted.Render("esc cancel"))
	return cells.Fit(strings.Join(parts, "  "), width)
}

// choiceOf reads a numbered pick (B's branches, O's conversations): the
// index, from 0, of the number pressed among n choices (the first
// maxChoices of them); false for any other key, which cancels the pick.
func choiceOf(keys tui.KeyMap, msg tea.KeyPressMsg, n int) (int, bool) {
	n = min(n, maxChoices)
	if !key.Matches(msg, keys.Choose) {
		return 0, false
	}
	k, err := strconv.Atoi(msg.String())
	if err != nil || k < 1 || k > n {
		return 0, false
	}
	return k - 1, true
}
