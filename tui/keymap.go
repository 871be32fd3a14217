package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the TUI, as data: help and the footer are
// generated from it, and bindings that do not apply are disabled rather
// than kept in separate lists.
type KeyMap struct {
	Down, Up               key.Binding
	Top, Bottom            key.Binding
	HalfDown, HalfUp       key.Binding
	PageDown, PageUp       key.Binding
	NextError, PrevError   key.Binding
	NextUser, PrevUser     key.Binding
	NextStatus, PrevStatus key.Binding
	Bookmark, NextBookmark key.Binding
	// PrevBookmark walks the bookmarks backwards; both wrap around.
	PrevBookmark         key.Binding
	Jump                 key.Binding
	Search               key.Binding
	NextMatch, PrevMatch key.Binding
	// OlderSearch and NewerSearch walk the search history in the "/"
	// prompt.
	OlderSearch, NewerSearch key.Binding
	Filter, Noise            key.Binding
	TimeMode                 key.Binding
	Play, Faster, Slower     key.Binding
	Inspect, Back            key.Binding
	Raw, Diff, Fold          key.Binding
	// Wrap toggles wrapping of raw JSON; Left and Right scroll it
	// sideways while it is unwrapped.
	Wrap, Left, Right   key.Binding
	Copy, Pager, Export key.Binding
	Focus, FocusPane    key.Binding
	Accept, Reject      key.Binding
	// Fork forks the conversation at the cursor's event; Navigate moves
	// its HEAD there (live agent-server only).
	Fork, Navigate key.Binding
	// Branches lists the branches at a branch point and shows one.
	Branches   key.Binding
	Help, Quit key.Binding
}

// DefaultKeyMap returns the bindings documented in the user guide.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Down:         b("j/↓", "next event", "j", "down"),
		Up:           b("k/↑", "previous event", "k", "up"),
		Top:          b("g/home", "first event", "g", "home"),
		Bottom:       b("G/end", "newest event (live)", "G", "end"),
		HalfDown:     b("ctrl+d", "half page down", "ctrl+d"),
		HalfUp:       b("ctrl+u", "half page up", "ctrl+u"),
		PageDown:     b("pgdn", "page down", "pgdown"),
		PageUp:       b("pgup", "page up", "pgup"),
		NextError:    b("]", "next error", "]"),
		PrevError:    b("[", "previous error", "["),
		NextUser:     b("}", "next user turn", "}"),
		PrevUser:     b("{", "previous user turn", "{"),
		NextStatus:   b(")", "next status change", ")"),
		PrevStatus:   b("(", "previous status change", "("),
		Bookmark:     b("m", "bookmark", "m"),
		NextBookmark: b("'", "next bookmark", "'"),
		PrevBookmark: b("\"", "previous bookmark", "\""),
		Jump:         b(":", "jump to index/time", ":"),
		Search:       b("/", "search", "/"),
		NextMatch:    b("n", "next match", "n"),
		PrevMatch:    b("N", "previous match", "N"),
		OlderSearch:  b("↑/↓", "/ history", "up", "ctrl+p"),
		NewerSearch:  b("↓", "in /: later search", "down", "ctrl+n"),
		Filter:       b("f", "filter kinds", "f"),
		Noise:        b("F", "toggle noise", "F"),
		TimeMode:     b("t", "time: relative/absolute/gap", "t"),
		Play:         b("space", "play/pause", "space"),
		Faster:       b("+", "faster", "+", "="),
		Slower:       b("-", "slower", "-"),
		Inspect:      b("enter", "inspect", "enter"),
		Back:         b("esc", "back", "esc"),
		Raw:          b("r", "raw JSON", "r"),
		Diff:         b("d", "state diff", "d"),
		Fold:         b("enter/z", "fold/unfold", "enter", "space", "z"),
		Wrap:         b("w", "wrap/unwrap raw JSON", "w"),
		Left:         b("←/h", "scroll raw JSON left", "left", "h"),
		Right:        b("→/l", "scroll raw JSON right", "right", "l"),
		Copy:         b("y", "copy JSON", "y"),
		Pager:        b("o", "open in pager", "o"),
		Export:       b("e", "export", "e"),
		Focus:        b("tab", "next pane", "tab"),
		FocusPane:    b("1-5", "focus pane by number", "1", "2", "3", "4", "5"),
		Accept:       b("a", "accept pending", "a"),
		Reject:       b("x", "reject pending", "x"),
		Fork:         b("b", "fork from this event", "b"),
		Navigate:     b("H", "move HEAD to this event", "H"),
		Branches:     b("B", "branches here: show one", "B"),
		Help:         b("?", "help", "?"),
		Quit:         b("q", "quit", "q", "ctrl+c"),
	}
}

// helpGroups lays the bindings out for the help screen, grouped by what
// they are for.
func (k KeyMap) helpGroups() []helpGroup {
	return []helpGroup{
		{"Move", []key.Binding{k.Down, k.Up, k.Top, k.Bottom, k.HalfDown, k.HalfUp, k.PageDown, k.PageUp}},
		{"Jump", []key.Binding{k.NextError, k.PrevError, k.NextUser, k.PrevUser, k.NextStatus, k.PrevStatus, k.Bookmark, k.NextBookmark, k.PrevBookmark, k.Jump, k.Branches}},
		{"Find", []key.Binding{k.Search, k.NextMatch, k.PrevMatch, k.OlderSearch, k.Filter, k.Noise, k.TimeMode}},
		{"Replay", []key.Binding{k.Play, k.Faster, k.Slower}},
		{"Panes", []key.Binding{k.Focus, k.FocusPane}},
		{"Inspect", []key.Binding{k.Inspect, k.Back, k.Raw, k.Diff, k.Fold, k.Wrap, k.Left, k.Right, k.Copy, k.Pager, k.Export}},
		{"Live", []key.Binding{k.Accept, k.Reject, k.Fork, k.Navigate}},
		{"App", []key.Binding{k.Help, k.Quit}},
	}
}

// helpGroup is one titled column of the help screen.
type helpGroup struct {
	title    string
	bindings []key.Binding
}
