package tui

import "charm.land/bubbles/v2/key"

// FleetKeyMap is every key of the fleet table, as data: the footer and the
// help screen are generated from it.
type FleetKeyMap struct {
	Down, Up         key.Binding
	Top, Bottom      key.Binding
	PageDown, PageUp key.Binding
	Open             key.Binding
	// Sort cycles the column the rows are sorted by; Reverse flips the
	// order.
	Sort, Reverse key.Binding
	// Filter opens the text filter; Status cycles the status filter.
	Filter, Status key.Binding
	// Group groups the rows by source (v, "view": g is "first" here
	// as in the monitor).
	Group key.Binding
	// Seen marks the selected conversation's finished (or error, stuck)
	// as seen, clearing its attention mark.
	Seen key.Binding
	// Back clears the filters (or closes the help); Help shows every key.
	Back, Help, Quit key.Binding
	// Interrupt ends the program (ctrl+c).
	Interrupt key.Binding
	// Accept and Clear end the filter line, keeping or dropping its text.
	Accept, Clear key.Binding
	// Resume and ReadOnly answer enter on a conversation whose sandbox is
	// paused: resume the sandbox and open it live, or open the stored
	// events read-only.
	Resume, ReadOnly key.Binding
	// CancelOpen stops opening (or resuming) a conversation that is
	// taking long: a slow server, a sandbox that does not come up.
	CancelOpen key.Binding
	// PauseRun, ResumeRun, InterruptRun, Message and Policy act on the
	// selected row's conversation, as in its view; PauseAll pauses every
	// running conversation the rows show. Confirm answers y to their
	// questions, PolicyPick picks a policy, SendMessage and RunToggle are
	// the message field's.
	PauseRun, ResumeRun, InterruptRun, Message, Policy, PauseAll key.Binding
	Confirm, PolicyPick, SendMessage, RunToggle                  key.Binding
	// Mark marks a conversation to compare; Compare compares the two
	// marked.
	Mark, Compare key.Binding
}

// DefaultFleetKeyMap returns the bindings the README documents.
func DefaultFleetKeyMap() FleetKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return FleetKeyMap{
		Down:      b("j/↓", "next conversation", "j", "down"),
		Up:        b("k/↑", "previous conversation", "k", "up"),
		Top:       b("g/home", "first", "g", "home"),
		Bottom:    b("G/end", "last", "G", "end"),
		PageDown:  b("pgdn/ctrl+d", "page down", "pgdown", "ctrl+d"),
		PageUp:    b("pgup/ctrl+u", "page up", "pgup", "ctrl+u"),
		Open:      b("enter", "open in the monitor", "enter"),
		Sort:      b("s", "sort by the next column", "s"),
		Reverse:   b("S", "reverse the order", "S"),
		Filter:    b("/", "find: keep matching rows", "/"),
		Status:    b("f", "filter by status", "f"),
		Group:     b("v", "view grouped by source", "v"),
		Seen:      b("u", "mark seen (unflag)", "u"),
		Back:      b("esc", "clear filters", "esc"),
		Help:      b("?", "all keys", "?"),
		Quit:      b("q", "quit", "q"),
		Interrupt: b("ctrl+c", "quit", "ctrl+c"),
		Accept:    b("enter", "keep the filter", "enter"),
		Clear:     b("esc", "clear the filter", "esc"),
		Resume:    b("y", "resume the paused sandbox, open live", "y"),
		ReadOnly:  b("n/esc", "open the stored events read-only", "n", "esc"),
		// esc while a conversation is being opened or resumed.
		CancelOpen: b("esc", "stop opening (while opening)", "esc"),

		// The controls of a conversation, on its row (fleet_steer.go).
		PauseRun:     b("p", "pause the selected agent", "p"),
		ResumeRun:    b("R", "resume the selected agent", "R"),
		InterruptRun: b("I", "interrupt the selected agent (asks y)", "I"),
		Message:      b("M", "message the selected conversation", "M"),
		Policy:       b("C", "its confirmation policy (asks y)", "C"),
		PauseAll:     b("P", "pause all running shown (asks y)", "P"),
		Confirm:      b("y", "in I/C/P: yes, send", "y", "Y"),
		PolicyPick:   b("C 1-5", "pick a policy", "1", "2", "3", "4", "5"),
		SendMessage:  b("M enter", "send the message (runs the agent)", "enter"),
		RunToggle:    b("M tab", "run on it, or append only", "tab"),
		Mark:         b("m", "mark to compare (two)", "m"),
		Compare:      b("D", "compare the two marked", "D"),
	}
}

// ShortHelp implements help.KeyMap: the keys of the footer.
func (k FleetKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Down, k.Sort, k.Reverse, k.Filter, k.Status, k.Group, k.Seen, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap: every key, in columns.
func (k FleetKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Down, k.Up, k.Top, k.Bottom, k.PageDown, k.PageUp},
		{k.Open, k.Resume, k.ReadOnly, k.CancelOpen, k.Seen, k.Sort, k.Reverse, k.Group, k.Mark, k.Compare},
		{k.Filter, k.Status, k.Back, k.Help, k.Quit, k.Interrupt},
		// The keys inside a control's question and the message field are
		// named by the question itself.
		{k.PauseRun, k.ResumeRun, k.InterruptRun, k.PauseAll, k.Message, k.Policy},
	}
}
