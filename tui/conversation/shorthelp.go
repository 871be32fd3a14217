package conversation

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// paneKeys is the help.KeyMap of one focused pane or screen: the few keys
// that matter there, in short words, for the one-line help.
type paneKeys struct {
	short []key.Binding
	// back says q goes back a screen (out of the inspector, the help or
	// the picker, or to the screen under the conversation) rather than
	// quitting.
	back bool
}

// ShortHelp implements help.KeyMap.
func (p paneKeys) ShortHelp() []key.Binding { return p.short }

// FullHelp implements help.KeyMap; the full reference is the help screen.
func (p paneKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p.short} }

// paneKeyMap returns the keys of what has focus now: the help screen, the
// kind picker, the inspector, a side pane, or the event list, each worded
// by the pane's own keys function (the pane's ShortHelp).
func (m *Conversation) paneKeyMap(st reducer.State) paneKeys {
	k := m.activeKeys(st)
	if d := m.overlay.Top(); d != nil {
		return paneKeys{short: d.ShortHelp(), back: true}
	}
	switch {
	case m.focus != paneList:
		return paneKeys{short: sidePaneKeys(k, m.focus), back: !m.AtRoot()}
	}
	return paneKeys{short: listKeys(k, m.Opts.Live), back: !m.AtRoot()}
}

// scrollKey is the j/k of a pane that scrolls.
func scrollKey(what string) key.Binding {
	return key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll "+what))
}

// answerKeys are accept and reject, shown first wherever they apply.
func answerKeys(k tui.KeyMap) []key.Binding {
	return []key.Binding{tui.Shortly(k.Accept, "a", "accept"), tui.Shortly(k.Reject, "x", "reject")}
}

// helpKeys are the keys of the help screen.
func helpKeys(k tui.KeyMap) []key.Binding {
	return []key.Binding{scrollKey("help"), tui.Shortly(k.Back, "esc", "close")}
}

// pickerKeys are the keys of the kind picker.
func pickerKeys(k tui.KeyMap) []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pick")),
		key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "invert")),
		key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clear")),
		tui.Shortly(k.Back, "esc", "done"),
	}
}

// sidePaneKeys are the keys of a focused side pane.
func sidePaneKeys(k tui.KeyMap, p pane) []key.Binding {
	return append(answerKeys(k), scrollKey(strings.ToLower(p.title())),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "events")),
		tui.Shortly(k.Focus, "tab", "next pane"), tui.Shortly(k.FocusPane, "1-5", "pane"), tui.Shortly(k.Inspect, "enter", "inspect"))
}

// listKeys are the keys of the event list; live words G as "live".
func listKeys(k tui.KeyMap, live bool) []key.Binding {
	end := "live"
	if !live {
		end = "end"
	}
	return append(answerKeys(k), tui.Shortly(k.Inspect, "enter", "inspect"), tui.Shortly(k.Down, "j/k", "move"),
		tui.Shortly(k.Bottom, "G", end), tui.Shortly(k.NextError, "]", "error"), tui.Shortly(k.Search, "/", "search"),
		tui.Shortly(k.NextMatch, "n/N", "match"), tui.Shortly(k.Jump, ":", "jump"), tui.Shortly(k.Filter, "f", "filter"),
		tui.Shortly(k.Play, "space", "play"), tui.Shortly(k.FocusPane, "1-5", "pane"), tui.Shortly(k.Export, "e", "export"))
}

// shortHelp is the one-line help, exactly as wide as width allows: the
// focused pane's keys, as many as fit, and always "? help  q quit" last
// ("q back" where q goes back a screen).
// helpKey and quit are the ? and q bindings.
func shortHelp(keys paneKeys, helpKey, quit key.Binding, s *theme.Styles, cells text.Cells, width int) string {
	h := help.New()
	h.ShortSeparator = "  "
	h.Styles = help.Styles{Ellipsis: s.Muted, ShortKey: s.Key, ShortDesc: s.KeyDesc, ShortSeparator: s.Muted}
	word := "quit"
	if keys.back {
		word = "back"
	}
	tail := h.ShortHelpView([]key.Binding{tui.Shortly(helpKey, "?", "help"), tui.Shortly(quit, "q", word)})
	room := width - cells.Width(tail) - 2
	shown, cut := fitBindings(cells, keys.ShortHelp(), room, cells.Width(h.ShortSeparator))
	if len(shown) == 0 {
		return tail
	}
	body := h.ShortHelpView(shown)
	if cut {
		body += " " + s.Muted.Render(h.Ellipsis)
	}
	return body + "  " + tail
}

// fitBindings returns the enabled bindings that fit in width cells, in
// order, leaving room for a " …" when some are left out (help.Model's own
// truncation keeps adding items once the ellipsis no longer fits).
func fitBindings(cells text.Cells, bindings []key.Binding, width, sepW int) (shown []key.Binding, cut bool) {
	used := 0
	for k, b := range bindings {
		if !b.Enabled() {
			continue
		}
		w := cells.Width(b.Help().Key) + 1 + cells.Width(b.Help().Desc)
		if used > 0 {
			w += sepW
		}
		reserve := 0
		for _, later := range bindings[k+1:] {
			if later.Enabled() {
				reserve = 2 // " …" if a later one does not fit
				break
			}
		}
		if used+w+reserve > width {
			return shown, true
		}
		used += w
		shown = append(shown, b)
	}
	return shown, false
}

// ShortHelp implements help.KeyMap (and so Screen): the keys of what has
// focus now.
func (m *Conversation) ShortHelp() []key.Binding {
	m.tellInspector()
	return m.paneKeyMap(m.state()).short
}

// FullHelp implements help.KeyMap: every binding, grouped as the help
// screen shows them.
func (m *Conversation) FullHelp() [][]key.Binding {
	groups := m.keys.HelpGroups()
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.Bindings
	}
	return out
}
