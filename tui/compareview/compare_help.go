package compareview

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// The screen's key reference (?) is a tui.Help dialog on its overlay.

// compareHelp is what the screen's key reference says.
type compareHelp struct {
	styles *theme.Styles
	groups [][]key.Binding
}

// openHelp opens the key reference over the screen.
func (c *Compare) openHelp() {
	c.overlay.Open(tui.NewHelp(c.helpConfig()))
	c.fitDialogs()
}

// fitDialogs gives the open dialogs what may have changed under them:
// the screen's size, styles and width model.
func (c *Compare) fitDialogs() {
	if h, ok := dialog.As[*tui.Help](&c.overlay); ok {
		h.Configure(c.helpConfig())
		h.SetSize(c.width, c.height)
	}
}

// helpConfig is the screen's key reference, read with its moves.
func (c *Compare) helpConfig() tui.HelpConfig {
	k := c.keys
	return tui.ScreenHelp("ohwatch compare", &c.styles, c.Cells, compareHelp{styles: &c.styles, groups: c.FullHelp()}.lines,
		tui.PagerKeys{Down: k.Down, Up: k.Up, PageDown: k.PageDown, PageUp: k.PageUp, Top: k.Top, Bottom: k.Bottom}, k.Back, k.Help, k.Quit)
}

// lines is every key of the screen, then what the rows' marks mean;
// rows does not matter.
func (ch compareHelp) lines(w, _ int) []string {
	s := *ch.styles
	hm := help.New()
	hm.Styles = help.Styles{FullKey: s.Key, FullDesc: s.KeyDesc, FullSeparator: s.Muted}
	lines := []string{hm.FullHelpView(ch.groups), ""}
	about := "rows: = the same event on both sides (shared by id), blank the same step, ~ the same tool with other arguments or outcome, " +
		"- only in A, + only in B; both panes show each run as of the cursor's row."
	lines = append(lines, s.Muted.Width(max(w, 1)).Render(about))
	return strings.Split(strings.Join(lines, "\n"), "\n")
}
