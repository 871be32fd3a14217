package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the conversation view, as data: every
// key the view answers is matched against it (nothing compares key names),
// help and the footer are generated from it, and bindings that do not
// apply are disabled rather than kept in separate lists.
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
	// Submit keeps what a text prompt holds (a search, a jump, a path).
	Submit        key.Binding
	Filter, Noise key.Binding
	// Narrow opens the text filter: text, tool:NAME, failed, exit:N.
	Narrow key.Binding
	// Pick, Invert and Clear edit the kind filter while it is open.
	Pick, Invert, Clear  key.Binding
	TimeMode             key.Binding
	Play, Faster, Slower key.Binding
	Inspect, Back        key.Binding
	// Home and End go to the start and the end of what the inspector
	// shows (in the list they are Top and Bottom).
	Home, End       key.Binding
	Raw, Diff, Fold key.Binding
	// Wrap toggles wrapping of raw JSON; Left and Right scroll it
	// sideways while it is unwrapped.
	Wrap, Left, Right   key.Binding
	Copy, Pager, Export key.Binding
	// CopyText copies what the inspector shows of the event: the
	// command, the output, the diff or the message (Copy copies its
	// JSON); Edit opens the file an edit changed in $EDITOR.
	CopyText, Edit key.Binding
	// ExportMarkdown, ExportJSON and ExportJSONL pick the format once
	// Export asked for one.
	ExportMarkdown, ExportJSON, ExportJSONL key.Binding
	Focus, FocusPane                        key.Binding
	// Zoom gives the focused pane, or the inspector, the whole screen's
	// width, and gives the other panes their room back.
	Zoom           key.Binding
	Accept, Reject key.Binding
	// Confirm answers yes to the question accept or reject asks; any
	// other key cancels it.
	Confirm key.Binding
	// Fork forks the conversation at the cursor's event; Navigate moves
	// its HEAD there (live agent-server only).
	Fork, Navigate key.Binding
	// Branches lists the branches at a branch point and shows one;
	// Choose picks one of them by its number.
	Branches, Choose key.Binding
	// OpenLink opens a conversation forked or launched from the event.
	OpenLink key.Binding
	// PauseRun, ResumeRun and InterruptRun pause, resume and interrupt
	// a live conversation; Message opens the message field, Policy the
	// confirmation policies (PolicyPick picks one by number).
	PauseRun, ResumeRun, InterruptRun key.Binding
	Message, Policy, PolicyPick       key.Binding
	// SendMessage sends the message field's text; RunToggle switches
	// between sending with run and appending only.
	SendMessage, RunToggle key.Binding
	// Guards lists the armed guards and edits their rules.
	Guards key.Binding
	// Warnings lists the warnings the header counts; enter jumps to the
	// event one is about.
	Warnings key.Binding
	// CompareParent compares a fork with the conversation it was forked
	// from, from the fork point.
	CompareParent key.Binding
	// Quit goes back one screen, and quits at the root; Interrupt ends
	// the program as SIGINT does (exit 130), or cancels an open prompt.
	Help, Quit, Interrupt key.Binding
}

// DefaultKeyMap returns the bindings documented in the user guide.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Down:           b("j/↓", "next event", "j", "down"),
		Up:             b("k/↑", "previous event", "k", "up"),
		Top:            b("g/home", "first event", "g", "home"),
		Bottom:         b("G/end", "newest event (live)", "G", "end"),
		HalfDown:       b("ctrl+d", "half page down", "ctrl+d"),
		HalfUp:         b("ctrl+u", "half page up", "ctrl+u"),
		PageDown:       b("pgdn", "page down", "pgdown"),
		PageUp:         b("pgup", "page up", "pgup"),
		NextError:      b("]", "next error", "]"),
		PrevError:      b("[", "previous error", "["),
		NextUser:       b("}", "next user turn", "}"),
		PrevUser:       b("{", "previous user turn", "{"),
		NextStatus:     b(")", "next status change", ")"),
		PrevStatus:     b("(", "previous status change", "("),
		Bookmark:       b("m", "bookmark", "m"),
		NextBookmark:   b("'", "next bookmark", "'"),
		PrevBookmark:   b("\"", "previous bookmark", "\""),
		Jump:           b(":", "jump to index/time", ":"),
		Search:         b("/", "find: mark matches, n/N", "/"),
		NextMatch:      b("n", "next match", "n"),
		PrevMatch:      b("N", "previous match", "N"),
		OlderSearch:    b("↑", "in /: earlier search", "up", "ctrl+p"),
		NewerSearch:    b("↓", "in /: later search", "down", "ctrl+n"),
		Submit:         b("enter", "in / and :, keep", "enter"),
		Filter:         b("f", "filter kinds", "f"),
		Pick:           b("space/x", "in f: pick a kind", "space", "x"),
		Invert:         b("i", "in f: invert", "i"),
		Clear:          b("c", "in f: clear", "c"),
		Noise:          b("F", "toggle noise", "F"),
		Narrow:         b("|", "narrow the list (text, tool:…)", "|"),
		TimeMode:       b("t", "time: relative/absolute/gap", "t"),
		Play:           b("space", "play/pause", "space"),
		Faster:         b("+", "faster", "+", "="),
		Slower:         b("-", "slower", "-"),
		Inspect:        b("enter", "inspect", "enter"),
		Back:           b("esc", "back", "esc"),
		Home:           b("home", "inspector: top", "home"),
		End:            b("end", "inspector: bottom", "end"),
		Raw:            b("r", "raw JSON", "r"),
		Diff:           b("d", "state diff", "d"),
		Fold:           b("enter/z", "fold/unfold", "enter", "space", "z"),
		Wrap:           b("w", "wrap/unwrap raw JSON", "w"),
		Left:           b("←/h", "scroll raw JSON left", "left", "h"),
		Right:          b("→/l", "scroll raw JSON right", "right", "l"),
		Copy:           b("y", "copy JSON", "y"),
		CopyText:       b("Y", "copy the text shown", "Y"),
		Edit:           b("E", "edit the changed file", "E"),
		Pager:          b("o", "page the text shown", "o"),
		Export:         b("e", "export", "e"),
		ExportMarkdown: b("e m", "export markdown", "m"),
		ExportJSON:     b("e j", "export state JSON", "j"),
		ExportJSONL:    b("e l", "export events JSONL", "l"),
		Focus:          b("tab", "next pane", "tab"),
		FocusPane:      b("1-5", "focus pane by number", "1", "2", "3", "4", "5"),
		Zoom:           b("Z", "zoom the pane (full width)", "Z"),
		Accept:         b("a", "accept pending", "a"),
		Reject:         b("x", "reject pending", "x"),
		Confirm:        b("y", "in a/x/b/H/I/C: yes, send", "y", "Y"),
		Fork:           b("b", "fork from this event", "b"),
		Branches:       b("B", "branches here: show one", "B"),
		Choose:         b("B/O 1-9", "show that branch, open that one", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		OpenLink:       b("O", "open a fork/child made here", "O"),
		CompareParent:  b("D", "compare with the parent", "D"),
		Navigate:       b("H", "move HEAD to this event", "H"),
		PauseRun:       b("p", "pause the agent", "p"),
		ResumeRun:      b("R", "resume the agent (run)", "R"),
		InterruptRun:   b("I", "interrupt the LLM call", "I"),
		Message:        b("M", "send a message (multi-line)", "M"),
		Policy:         b("C", "confirmation policy (asks y)", "C"),
		PolicyPick:     b("C 1-5", "pick a policy", "1", "2", "3", "4", "5"),
		SendMessage:    b("M enter", "send the message", "enter"),
		RunToggle:      b("M tab", "run on it, or append only", "tab"),
		Guards:         b("L", "guards: list and change", "L"),
		Warnings:       b("W", "warnings: list, enter jumps", "W"),
		Help:           b("?", "help", "?"),
		Quit:           b("q", "back a screen, or quit", "q"),
		Interrupt:      b("ctrl+c", "interrupt (exit 130)", "ctrl+c"),
	}
}

// HelpGroups lays the bindings out for the help screen, grouped by what
// they are for.
func (k KeyMap) HelpGroups() []helpGroup {
	return []helpGroup{
		{"Move", []key.Binding{k.Down, k.Up, k.Top, k.Bottom, k.HalfDown, k.HalfUp, k.PageDown, k.PageUp}},
		{"Jump", []key.Binding{k.NextError, k.PrevError, k.NextUser, k.PrevUser, k.NextStatus, k.PrevStatus, k.Bookmark, k.NextBookmark, k.PrevBookmark, k.Jump, k.Branches, k.Choose, k.OpenLink, k.CompareParent, k.Warnings}},
		{"Find", []key.Binding{k.Search, k.NextMatch, k.PrevMatch, k.OlderSearch, k.NewerSearch, k.Submit, k.Filter, k.Pick, k.Invert, k.Clear, k.Noise, k.Narrow, k.TimeMode}},
		{"Replay", []key.Binding{k.Play, k.Faster, k.Slower}},
		{"Panes", []key.Binding{k.Focus, k.FocusPane, k.Zoom}},
		{"Inspect", []key.Binding{k.Inspect, k.Back, k.Home, k.End, k.Raw, k.Diff, k.Fold, k.Wrap, k.Left, k.Right, k.Copy, k.CopyText, k.Edit, k.Pager,
			k.Export, k.ExportMarkdown, k.ExportJSON, k.ExportJSONL}},
		{"Live", []key.Binding{k.Accept, k.Reject, k.Confirm, k.Fork, k.Navigate,
			k.PauseRun, k.ResumeRun, k.InterruptRun, k.Message, k.SendMessage, k.RunToggle, k.Policy, k.PolicyPick, k.Guards}},
		{"App", []key.Binding{k.Help, k.Quit, k.Interrupt}},
	}
}

// helpGroup is one titled column of the help screen.
type helpGroup struct {
	Title    string
	Bindings []key.Binding
}

// All is every binding of the key map, each once, in the help's order.
func (k KeyMap) All() []key.Binding {
	var out []key.Binding
	for _, g := range k.HelpGroups() {
		out = append(out, g.Bindings...)
	}
	return out
}
