package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"ohwatch/reducer"
)

// footer is the bottom line: the prompt while one is open, else a transient
// message and the keys that apply now.
type footer struct {
	m  Model
	st reducer.State
}

// Render implements the pane contract: exactly width×height cells.
func (f footer) Render(width, height int) string {
	m := f.m
	s := m.styles
	if m.input.active() {
		return fit(m.input.Render(s, width), width, height)
	}
	var parts []string
	if m.flash != "" {
		parts = append(parts, s.Warn.Render(m.flash))
	} else if found := m.searchStatus(s); found != "" {
		parts = append(parts, found)
	}
	for _, b := range f.bindings() {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		parts = append(parts, s.Key.Render(h.Key)+" "+s.KeyDesc.Render(h.Desc))
	}
	return fit(strings.Join(parts, "  "), width, height)
}

// bindings are the keys worth showing in the current context.
func (f footer) bindings() []key.Binding {
	m := f.m
	k := m.activeKeys(f.st)
	switch {
	case m.showHelp:
		return []key.Binding{k.Back, k.Quit}
	case m.picker.open:
		return []key.Binding{
			key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pick")),
			key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "invert")),
			key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clear")),
			k.Back,
		}
	case m.insp.open:
		scroll := key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll"))
		return []key.Binding{k.Back, k.Raw, k.Diff, k.Fold, scroll, k.Copy, k.Pager, k.Export, k.NextError}
	}
	return []key.Binding{k.Accept, k.Reject, k.Inspect, k.Down, k.Up, k.Bottom, k.NextError, k.Search,
		k.NextMatch, k.Jump, k.Filter, k.Noise, k.Play, k.Focus, k.Export, k.Help, k.Quit}
}

// activeKeys returns the key map with the bindings that do not apply now
// disabled: accept and reject only while live and waiting for
// confirmation, export only with an exporter, n/N only after a search.
// st is the state as of the cursor.
func (m Model) activeKeys(st reducer.State) KeyMap {
	k := m.keys
	// Answering is about the conversation now, not the cursor's past: the
	// latest state decides, wherever the cursor is.
	canRespond := m.opts.Controls != nil && m.opts.Live && !m.feedDone &&
		m.log.Latest().Status == "waiting_for_confirmation"
	k.Accept.SetEnabled(canRespond)
	k.Reject.SetEnabled(canRespond)
	k.Export.SetEnabled(m.opts.Export != nil)
	k.NextMatch.SetEnabled(len(m.search.matches) > 0)
	k.PrevMatch.SetEnabled(len(m.search.matches) > 0)
	k.Bottom.SetEnabled(!m.follow)
	if !m.opts.Live {
		// A recording has no live end to return to.
		k.Bottom.SetHelp(k.Bottom.Help().Key, "last event")
	}
	inInspector := m.insp.open
	k.Raw.SetEnabled(inInspector)
	k.Diff.SetEnabled(inInspector)
	k.Fold.SetEnabled(inInspector && m.insp.mode == modeRaw)
	k.Copy.SetEnabled(m.cursor >= 0)
	k.Pager.SetEnabled(m.cursor >= 0)
	k.Inspect.SetEnabled(m.cursor >= 0 && !inInspector)
	k.Back.SetEnabled(inInspector || m.showHelp || m.picker.open)
	k.NextBookmark.SetEnabled(len(m.bookmarks) > 0)
	return k
}
