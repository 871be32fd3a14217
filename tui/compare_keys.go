package tui

import "charm.land/bubbles/v2/key"

// CompareKeyMap is every key of the compare screen, as data: the footer
// and the help are generated from it.
type CompareKeyMap struct {
	Down, Up         key.Binding
	Top, Bottom      key.Binding
	PageDown, PageUp key.Binding
	// NextDiff and PrevDiff move to the next or previous row whose steps
	// are not the same.
	NextDiff, PrevDiff key.Binding
	// Open shows both steps of the row with the differences of their
	// arguments and outputs; Back closes them, or leaves the screen.
	Open, Back key.Binding
	Help, Quit key.Binding
	Interrupt  key.Binding
}

// DefaultCompareKeyMap returns the bindings the README documents.
func DefaultCompareKeyMap() CompareKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return CompareKeyMap{
		Down:      b("j/↓", "next row", "j", "down"),
		Up:        b("k/↑", "previous row", "k", "up"),
		Top:       b("g/home", "first row", "g", "home"),
		Bottom:    b("G/end", "last row", "G", "end"),
		PageDown:  b("pgdn/ctrl+d", "page down", "pgdown", "ctrl+d"),
		PageUp:    b("pgup/ctrl+u", "page up", "pgup", "ctrl+u"),
		NextDiff:  b("]", "next difference", "]"),
		PrevDiff:  b("[", "previous difference", "["),
		Open:      b("enter", "both steps, diffed", "enter"),
		Back:      b("esc", "close, or back", "esc"),
		Help:      b("?", "all keys", "?"),
		Quit:      b("q", "back a screen, or quit", "q"),
		Interrupt: b("ctrl+c", "interrupt (exit 130)", "ctrl+c"),
	}
}

// ShortHelp implements help.KeyMap: the keys of the footer.
func (k CompareKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, Shortly(k.Down, "j/k", "move"), Shortly(k.NextDiff, "]/[", "difference"), k.Back, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap: every key, in columns.
func (k CompareKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Down, k.Up, k.Top, k.Bottom, k.PageDown, k.PageUp},
		{k.NextDiff, k.PrevDiff, k.Open, k.Back},
		{k.Help, k.Quit, k.Interrupt},
	}
}
