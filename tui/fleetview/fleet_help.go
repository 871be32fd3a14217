package fleetview

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"ohwatch/theme"
	"ohwatch/tui"
)

// The table's key reference (?) is a tui.Help dialog on its overlay.

// fleetColumnsHelp says what each column of the table holds.
const fleetColumnsHelp = "columns: TITLE (a title runs share adds the start and id) · STATUS the run's status (✓ final, ? may change) · " +
	"STEPS LLM steps since the last user message / in the whole conversation · COST in dollars · " +
	"TOKENS prompt+completion · CALLS LLM calls · PEND actions waiting for your confirmation · " +
	"ERR errors · LAST the newest event's time · IDLE how long nothing came (- once the run ended) · " +
	"CONN the connection: live, reconnect #n, lost, done, paused (a Cloud sandbox asleep) · " +
	"RUNTIME where a server runs conversations in runtimes of their own: runtime available, starting, missing, ownership lost, error; archived"

// fleetHelp is what the table's key reference says.
type fleetHelp struct {
	styles *theme.Styles
	groups [][]key.Binding
	guards bool
}

// openHelp opens the key reference over the table.
func (f *Fleet) openHelp() {
	f.overlay.Open(tui.NewHelp(f.helpConfig()))
	f.fitDialogs()
}

// helpConfig is the table's key reference, read with the table's moves.
func (f *Fleet) helpConfig() tui.HelpConfig {
	k := f.keys
	return tui.ScreenHelp("ohwatch fleet", &f.styles, f.Cells, fleetHelp{styles: &f.styles, groups: f.FullHelp(), guards: len(f.opts.Guards) > 0}.lines,
		tui.PagerKeys{Down: k.Down, Up: k.Up, PageDown: k.PageDown, PageUp: k.PageUp, Top: k.Top, Bottom: k.Bottom}, k.Back, k.Help, k.Quit)
}

// lines is every key of the table: the groups of keys side by side as
// far as the width allows, the rest below; rows does not matter.
func (fh fleetHelp) lines(w, _ int) []string {
	s := *fh.styles
	hm := help.New()
	hm.FullSeparator = "    "
	hm.Styles = help.Styles{Ellipsis: s.Muted, FullKey: s.Key, FullDesc: s.KeyDesc, FullSeparator: s.Muted}
	var lines []string
	var row [][]key.Binding
	for _, g := range fh.groups {
		if len(row) > 0 && lipgloss.Width(hm.FullHelpView(append(row, g))) > w {
			lines = append(lines, hm.FullHelpView(row), "")
			row = nil
		}
		row = append(row, g)
	}
	lines = append(lines, hm.FullHelpView(row), "")
	about := "needs you: ! marks a conversation that waits for confirmation, ended in an error or stuck, " +
		"or finished since you last looked; u marks it seen, enter opens it, esc in it comes back here. " +
		"Mouse: the wheel moves, a click selects, a click on the selected row opens it, a click on a column name sorts."
	if fh.guards {
		about += " " + fleetGuardMark + " marks a run a --guard stopped."
	}
	lines = append(lines, s.Muted.Width(max(w, 1)).Render(about), "", s.Muted.Width(max(w, 1)).Render(fleetColumnsHelp))
	return strings.Split(strings.Join(lines, "\n"), "\n")
}
