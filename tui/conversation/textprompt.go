package conversation

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/theme"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// maxInputRunes bounds what a text prompt takes.
const maxInputRunes = 200

// maxSearchHistory is how many past searches ↑ recalls.
const maxSearchHistory = 50

// NewTextInput is the editor behind every text prompt (search, jump, the
// fleet table's filter): a bubbles textinput, so the keys people expect work —
// ←/→, home/end, ctrl+a/e, ctrl+u, ctrl+k, ctrl+w, alt+←/→ — and pasted
// text lands in it. The prompt draws it itself, in the theme's styles, so
// only the editing is borrowed; the clipboard key and the completion keys
// are off (pasting is the terminal's, ↑/↓ are the history's).
func NewTextInput() textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = maxInputRunes
	in.SetVirtualCursor(false)
	in.KeyMap.Paste.SetEnabled(false)
	in.KeyMap.AcceptSuggestion.SetEnabled(false)
	in.KeyMap.NextSuggestion.SetEnabled(false)
	in.KeyMap.PrevSuggestion.SetEnabled(false)
	in.Focus()
	return in
}

// editInput applies a key or a paste to a text input. Text from the
// terminal passes through the sanitiser first, so no control sequence
// reaches the screen through the prompt. changed reports whether the text
// changed (the cursor moving is not a change).
func editInput(in textinput.Model, msg tea.Msg) (out textinput.Model, changed bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.Text != "" {
			msg.Text = sanitize.Line(msg.Text)
		}
		before := in.Value()
		in, _ = in.Update(msg)
		return in, in.Value() != before
	case tea.PasteMsg:
		before := in.Value()
		in, _ = in.Update(tea.PasteMsg{Content: sanitize.Line(msg.Content)})
		return in, in.Value() != before
	}
	return in, false
}

// InputField draws a text input's value with its cursor, at most width
// Cells: a long value scrolls so the cursor stays on the screen.
func InputField(cells text.Cells, in textinput.Model, width int) string {
	value := []rune(in.Value())
	pos := min(in.Position(), len(value))
	before, after := string(value[:pos]), string(value[pos:])
	under := "█"
	if after != "" {
		r := []rune(after)
		under = lipgloss.NewStyle().Reverse(true).Render(string(r[0]))
		after = string(r[1:])
	}
	if room := max(width-2, 4); cells.Width(before) >= room {
		before = "…" + cells.TruncateLeft(before, cells.Width(before)-room+2, "")
	}
	return before + under + after
}

// searchOrigin is where the cursor was when the search prompt opened.
type searchOrigin struct {
	cursor, top int
	follow      bool
	// query is the search that was active then, restored by esc.
	query string
}

// openJump opens the ":" prompt.
func (m *Conversation) openJump() {
	m.openPrompt(Prompt{Kind: promptJump, in: NewTextInput()})
}

// openSearch opens the "/" prompt, empty: ↑ recalls earlier searches.
func (m *Conversation) openSearch() {
	m.openPrompt(Prompt{Kind: promptSearch, in: NewTextInput(), hist: len(m.search.hist),
		back: searchOrigin{cursor: m.cursor, top: m.top, follow: m.follow, query: m.search.query}})
}

// renderText draws the search or jump prompt.
func (p Prompt) renderText(s theme.Styles, cells text.Cells, width int) string {
	lead, hint := ":", "  #151 · +1:02:03 · 14:03:00 · 14:03:00+05:30 · ISO · esc cancel"
	switch p.Kind {
	case promptSearch:
		lead, hint = "/", "  enter keep · ↑ earlier searches · esc cancel"
	case promptExportPath:
		lead, hint = "export "+p.format+" to: ", "  enter write · esc cancel"
	case promptNarrow:
		lead, hint = "| ", "  text · tool:NAME · failed · exit:N · exit:!0 · enter keep (empty: all) · esc cancel"
	case promptGuards:
		lead, hint = "guards: ", "  "+p.note+" · enter keep (empty: none) · esc cancel"
	}
	room := width - cells.Width(lead) - cells.Width(hint)
	if room < 20 {
		// The value (and its cursor) matter more than the hint.
		room, hint = width-cells.Width(lead), ""
	}
	return s.Prompt.Render(lead) + InputField(cells, p.in, room) + s.Muted.Render(hint)
}

// textKey answers a key while a text prompt is open: enter submits, esc
// cancels, ↑/↓ walk the search history, the rest edits. Every edit of
// the search says so, for the view to preview it: the list moves to the
// first match after where the prompt was opened, and the matches mark the
// rows.
func (d *promptDialog) textKey(msg tea.KeyPressMsg) dialog.Action {
	switch {
	case key.Matches(msg, d.keys.Back, d.keys.Interrupt):
		return d.cancelled()
	case key.Matches(msg, d.keys.Submit):
		return d.submitted()
	}
	if older, newer := key.Matches(msg, d.keys.OlderSearch), key.Matches(msg, d.keys.NewerSearch); older || newer {
		if d.Kind == promptSearch {
			return d.historyStep(older)
		}
		return dialog.Run(nil)
	}
	return d.edit(msg)
}

// paste puts pasted text into an open text prompt, the message field or
// a free-form answer; the other prompts take none.
func (d *promptDialog) paste(msg tea.PasteMsg) dialog.Action {
	if d.Kind == PromptMessage {
		a, _ := d.Area.Update(tea.PasteMsg{Content: sanitize.Text(msg.Content)})
		d.Area = &a
		return dialog.Run(nil)
	}
	if a := d.ans; d.Kind == promptAnswer && len(a.questions[a.k].Options) == 0 {
		a.in, _ = editInput(a.in, msg)
		return dialog.Run(nil)
	}
	switch d.Kind {
	case promptSearch, promptJump, promptExportPath, promptForkTitle, promptForkMessage, promptNarrow, promptGuards:
		return d.edit(msg)
	}
	return dialog.Run(nil)
}

// edit applies a key or a paste to the text; a change of the search's
// says so.
func (d *promptDialog) edit(msg tea.Msg) dialog.Action {
	var changed bool
	d.in, changed = editInput(d.in, msg)
	if changed && d.Kind == promptSearch {
		return d.edited()
	}
	return dialog.Run(nil)
}

// edited says the search's text changed.
func (d *promptDialog) edited() dialog.Action {
	return dialog.Run(say(promptEditedMsg{back: d.back, text: d.in.Value()}))
}

// backTo puts the cursor and the list back where they were.
func (m *Conversation) backTo(o searchOrigin) {
	if m.Log.Len() == 0 {
		return
	}
	if o.follow && m.canFollow() {
		m.moveTo(m.Log.Len() - 1)
		return
	}
	m.moveTo(o.cursor)
	m.top = o.top
	m.fixTop()
}

// cancelSearchPrompt returns to where the prompt was opened and restores
// the search that was active then.
func (m *Conversation) cancelSearchPrompt(p Prompt) tea.Cmd {
	if m.search.query == p.back.query {
		return nil
	}
	m.backTo(p.back)
	return m.startSearch(p.back.query, false, true)
}

// submitSearch keeps the search typed into the prompt: the preview
// already runs it, so enter only records it in the history and lets a
// search with no match say so. An empty prompt clears the search.
func (m *Conversation) submitSearch(p Prompt) tea.Cmd {
	query := strings.TrimSpace(p.in.Value())
	if query == "" {
		if m.search.query == "" {
			return nil
		}
		return m.startSearch("", false, true)
	}
	m.search.keep(query)
	if m.search.query != query {
		return m.startSearch(query, true, false)
	}
	m.search.quiet = false
	if !m.search.running && len(m.search.matches) == 0 {
		m.search.quiet = true
		return m.setFlash("no match for “" + sanitize.Line(query) + "”")
	}
	return nil
}

// historyStep puts an earlier (up) or later (down) search into the
// prompt and says so; past the latest the prompt is empty again.
func (d *promptDialog) historyStep(up bool) dialog.Action {
	h := d.searches
	switch {
	case up && d.hist > 0:
		d.hist--
	case !up && d.hist < len(h):
		d.hist++
	default:
		return dialog.Run(nil)
	}
	text := ""
	if d.hist < len(h) {
		text = h[d.hist]
	}
	d.in.SetValue(text)
	d.in.CursorEnd()
	return d.edited()
}

// appendHistory adds a search to the history, the latest last, without
// repeating the one before it.
func appendHistory(h []string, query string) []string {
	if len(h) > 0 && h[len(h)-1] == query {
		return h
	}
	h = append(slices.Clip(h), query)
	if len(h) > maxSearchHistory {
		h = h[len(h)-maxSearchHistory:]
	}
	return h
}
