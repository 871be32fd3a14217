package conversation

import (
	"charm.land/bubbles/v2/key"

	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// footer is the bottom line: the prompt while one is open, else a transient
// message and the keys of the focused pane (its ShortHelp).
type footer struct {
	box
	cells text.Cells
	noKeys
	styles *theme.Styles
	// prompt is the dialog drawn in the footer's place (the prompt
	// line), nil when none is open.
	prompt dialog.Dialog
	// lead is the message before the keys: the flash, else the search's
	// progress or place ("match 3/31"); "" for none.
	lead string
	// help and quit are the ? and q bindings, keys the focused pane's.
	help, quit key.Binding
	keys       paneKeys
}

// footerOf gives the footer what it says.
func (m *Conversation) footerOf(st reducer.State) *footer {
	k := m.activeKeys(st)
	f := &footer{styles: &m.styles, cells: m.Cells, prompt: m.overlay.TopAt(dialog.Footer), help: k.Help, quit: k.Quit, keys: m.paneKeyMap(st)}
	if m.Flash != "" {
		f.lead = m.styles.Warn.Render(m.Flash)
	} else {
		f.lead = m.searchStatus(m.styles)
	}
	return f
}

// View implements Pane: exactly width×height cells.
func (f *footer) View() string {
	width, height := f.width, f.height
	s := f.styles
	if f.prompt != nil {
		f.prompt.SetSize(width, height)
		return f.prompt.View()
	}
	lead, keys := f.lead, f.keys
	if lead == "" {
		return f.cells.Block(shortHelp(keys, f.help, f.quit, s, f.cells, width), width, height)
	}
	// The message comes first; the keys take the room it leaves, and
	// "? help  q quit" stays at the end whatever the message's length.
	tail := shortHelp(paneKeys{back: keys.back}, f.help, f.quit, s, f.cells, width)
	lead = f.cells.Truncate(lead, max(width-f.cells.Width(tail)-2, 0), "…")
	rest := width - f.cells.Width(lead) - 2
	return f.cells.Block(lead+"  "+shortHelp(keys, f.help, f.quit, s, f.cells, rest), width, height)
}

// activeKeys returns the key map with the bindings that do not apply now
// disabled: accept and reject only while live and waiting for
// confirmation, export only with an exporter, n/N only after a search.
// st is the state as of the cursor.
func (m *Conversation) activeKeys(st reducer.State) tui.KeyMap {
	k := m.keys
	// Answering is about the conversation now, not the cursor's past: the
	// latest state decides, wherever the cursor is.
	canRespond := m.Opts.Controls != nil && m.Opts.Live && !m.feedDone &&
		m.Log.Latest().Status == "waiting_for_confirmation"
	k.Accept.SetEnabled(canRespond)
	k.Reject.SetEnabled(canRespond)
	if canRespond && m.Log.Latest().Question != nil {
		// A question is answered, never accepted or rejected (askuser.go).
		k.Accept.SetHelp("a", "answer the question")
		k.Reject.SetEnabled(false)
	}
	k.Export.SetEnabled(m.Opts.Export != nil)
	canBranch := m.Opts.Branching != nil && m.tree.unsupported == ""
	k.Fork.SetEnabled(canBranch)
	k.Navigate.SetEnabled(canBranch)
	k.Branches.SetEnabled(!m.Log.Linear())
	k.NextMatch.SetEnabled(len(m.search.matches) > 0)
	k.PrevMatch.SetEnabled(len(m.search.matches) > 0)
	k.Bottom.SetEnabled(!m.follow)
	if !m.Opts.Live {
		// A recording has no live end to return to.
		k.Bottom.SetHelp(k.Bottom.Help().Key, "last event")
	}
	in, inInspector := m.insp()
	raw := inInspector && in.mode == modeRaw
	k.Raw.SetEnabled(inInspector)
	k.Diff.SetEnabled(inInspector)
	k.Fold.SetEnabled(raw)
	k.Wrap.SetEnabled(raw)
	k.Left.SetEnabled(raw && in.nowrap)
	k.Right.SetEnabled(raw && in.nowrap)
	k.Copy.SetEnabled(m.cursor >= 0)
	k.Pager.SetEnabled(m.cursor >= 0)
	k.Inspect.SetEnabled(m.cursor >= 0 && !inInspector)
	// esc closes what is open, dismisses a banner, returns focus to the
	// list, or goes back to the screen under the view.
	k.Back.SetEnabled(m.overlay.Len() > 0 || inInspector || m.attn.status != "" || m.focus != paneList || !m.AtRoot() || m.search.query != "")
	k.Home.SetEnabled(inInspector)
	k.End.SetEnabled(inInspector)
	// The keys of a prompt or the picker apply only while it is open.
	picking := m.overlay.IsOpen(pickerID)
	k.Pick.SetEnabled(picking)
	k.Invert.SetEnabled(picking)
	k.Clear.SetEnabled(picking)
	prompt := m.promptKind()
	k.Submit.SetEnabled(prompt == promptSearch || prompt == promptJump || prompt == promptExportPath || prompt == promptNarrow || prompt == promptGuards)
	k.Confirm.SetEnabled(prompt == promptConfirm || prompt == promptControl)
	m.controlKeys(&k)
	exporting := prompt == promptExport
	k.ExportMarkdown.SetEnabled(exporting)
	k.ExportJSON.SetEnabled(exporting)
	k.ExportJSONL.SetEnabled(exporting)
	k.NextBookmark.SetEnabled(len(m.bookmarks) > 0)
	k.PrevBookmark.SetEnabled(len(m.bookmarks) > 0)
	replayKeys(&k, m.liveNow())
	return k
}

// liveNow reports whether the view follows a conversation that is still
// going: its feed is live and has not ended.
func (m *Conversation) liveNow() bool { return m.Opts.Live && !m.feedDone }

// replayKeys disables play and speed while live: there is nothing to
// play back at a speed when the events come as they happen.
func replayKeys(k *tui.KeyMap, live bool) {
	k.Play.SetEnabled(!live)
	k.Faster.SetEnabled(!live)
	k.Slower.SetEnabled(!live)
}
