package theme

// Glyphs names the symbols the screen uses, so a pane says "Pending" rather
// than hard-coding a character and every pane agrees on its meaning.
type Glyphs struct {
	Cursor     string // marks the selected row
	Error      string // an error row or mark
	Paired     string // an observation paired with its action
	Live       string // following the newest event
	Pinned     string // the cursor is pinned in the past
	Playing    string // replay is playing
	TaskTodo   string
	TaskDoing  string
	TaskDone   string
	Ellipsis   string // truncated text
	Separator  string // between header fields
	VRule      string // vertical rule between panes
	HRule      string // horizontal rule of a pane title
	ScrubEmpty string // a scrubber cell with nothing in it
	ScrubFill  string // a scrubber cell before the cursor
	ScrubHead  string // the scrubber cell holding the cursor
	MarkError  string
	MarkStatus string
	MarkUser   string
	MarkBook   string // a bookmark
	MarkMatch  string // a search match
	MarkBranch string // a branch point: an event with more than one way on
	MarkLink   string // an event another conversation came from (a fork, a sub-conversation)
	Forgotten  string // an event a condensation took out of the LLM's view
	Folded     string // a folded JSON node
	Unfolded   string // an unfolded JSON node
	Arrow      string // a status transition
	Confirmed  string // a finish the server confirmed
}

// DefaultGlyphs returns the Unicode glyph set.
func DefaultGlyphs() Glyphs {
	return Glyphs{
		Cursor:     "▶",
		Error:      "✗",
		Paired:     "↳",
		Live:       "●",
		Pinned:     "⏸",
		Playing:    "▶",
		TaskTodo:   "☐",
		TaskDoing:  "◐",
		TaskDone:   "☑",
		Ellipsis:   "…",
		Separator:  " · ",
		VRule:      "│",
		HRule:      "─",
		ScrubEmpty: "─",
		ScrubFill:  "━",
		ScrubHead:  "◆",
		MarkError:  "✗",
		MarkStatus: "◇",
		MarkUser:   "u",
		MarkBook:   "★",
		MarkMatch:  "┃",
		MarkBranch: "⑂",
		MarkLink:   "↗",
		Forgotten:  "◌",
		Folded:     "▸",
		Unfolded:   "▾",
		Arrow:      "→",
		Confirmed:  "✓",
	}
}
