package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/theme"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// HelpID is the key reference's ID among a screen's dialogs.
const HelpID = "help"

// Help is the key reference as a dialog, one type for every screen: a
// HelpPager over the lines the screen lays out. It takes every key (only
// esc, ? and q close it, HelpPager.Key) and passes everything else, so
// the mouse and the results of the screen's commands still reach the
// screen under it.
type Help struct {
	cfg   HelpConfig
	pager HelpPager
	// width and height are the area it was last given (SetSize).
	width, height int
}

// HelpConfig is what a screen gives its key reference. A screen may give
// it again while the reference is open (Configure), when what it says
// changed under it: the keys that apply, the styles, the width model.
type HelpConfig struct {
	// Title heads the reference, drawn as given.
	Title string
	// Lines lays the whole reference out for an area width cells wide
	// with rows lines under the title, unscrolled.
	Lines func(width, rows int) []string
	// Keys are the keys it is read with.
	Keys PagerKeys
	// Short names them for the screen's one-line help.
	Short []key.Binding
	// Styles and Cells draw it.
	Styles *theme.Styles
	Cells  text.Cells
	// Place is where its screen draws it (dialog.Main unless set).
	Place dialog.Place
}

// ScreenHelp is the key reference of a screen named name ("ohwatch
// fleet"): its title, read with keys, closed with back (shown as esc),
// help or quit, and drawn with s and cells as every screen's is.
func ScreenHelp(name string, s *theme.Styles, cells text.Cells, lines func(width, rows int) []string, keys PagerKeys, back, help, quit key.Binding) HelpConfig {
	keys.Close = []key.Binding{back, help, quit}
	return HelpConfig{
		Title:  s.Title.Render(name) + s.Muted.Render(" · keys"),
		Lines:  lines,
		Keys:   keys,
		Short:  []key.Binding{Shortly(keys.Down, "j/k", "scroll help"), Shortly(back, "esc", "close")},
		Styles: s,
		Cells:  cells,
	}
}

// NewHelp is a key reference, scrolled to its top.
func NewHelp(c HelpConfig) *Help { return &Help{cfg: c} }

// Configure gives the reference what it says anew, keeping where it is
// scrolled and what it finds.
func (h *Help) Configure(c HelpConfig) { h.cfg = c }

// ID implements dialog.Dialog.
func (h *Help) ID() string { return HelpID }

// Place implements dialog.Placed.
func (h *Help) Place() dialog.Place { return h.cfg.Place }

// SetSize implements dialog.Dialog.
func (h *Help) SetSize(width, height int) { h.width, h.height = width, height }

// ShortHelp implements dialog.Dialog.
func (h *Help) ShortHelp() []key.Binding { return h.cfg.Short }

// rows is how many lines of the reference show under its title.
func (h *Help) rows() int { return max(h.height-1, 1) }

// Update implements dialog.Dialog: a key scrolls, finds or closes; every
// other message is the screen's.
func (h *Help) Update(msg tea.Msg) dialog.Action {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return dialog.Pass()
	}
	rows := h.rows()
	if h.pager.Key(k, h.cfg.Keys, h.cfg.Lines(h.width, rows), rows) {
		return dialog.Close(nil)
	}
	return dialog.Run(nil)
}

// View implements dialog.Dialog: exactly the area it was given.
func (h *Help) View() string {
	if h.width <= 0 || h.height <= 0 {
		return ""
	}
	return h.pager.View(h.cfg.Styles, h.cfg.Cells, h.cfg.Title, h.cfg.Lines(h.width, h.rows()), h.width, h.height)
}
