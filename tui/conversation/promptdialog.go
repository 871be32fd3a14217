package conversation

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// promptID names the prompt line among the view's dialogs.
const promptID = "prompt"

// promptDialog is the prompt line as a dialog drawn in the footer: it owns
// what is being typed or picked (its Prompt: the kind, the text, the
// position in the search history) and reads every key while it is on top.
// It changes the view only through the messages its commands carry —
// promptEditedMsg, promptSubmittedMsg, promptCancelledMsg — which the view
// answers by what they say.
type promptDialog struct {
	Prompt
	// keys are the view's bindings, as they were when the prompt opened.
	keys tui.KeyMap
	// searches is the search history ↑/↓ walk (the search prompt's).
	searches []string
	styles   *theme.Styles
	cells    text.Cells
	width    int
	height   int
}

// promptEditedMsg says the search prompt's text changed (typed, pasted or
// recalled): the view previews the search from where the prompt opened.
type promptEditedMsg struct {
	back searchOrigin
	text string
}

// promptSubmittedMsg says what the prompt asks for: enter in a text
// prompt, y to a question, a format, a number from a list, an answer.
type promptSubmittedMsg struct {
	p Prompt
	// choice is the item picked from B's or O's list, from 0.
	choice int
	// action is how the answer prompt answers (model.AskAccept…).
	action string
}

// promptCancelledMsg says the prompt was left without an answer (esc,
// ctrl+c, or a key a question does not take); p is what it held.
type promptCancelledMsg struct{ p Prompt }

// say is a command that only carries what the prompt says.
func say(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// submitted closes the prompt and says what it asks for.
func (d *promptDialog) submitted() dialog.Action {
	return dialog.Close(say(promptSubmittedMsg{p: d.Prompt}))
}

// cancelled closes the prompt and says so.
func (d *promptDialog) cancelled() dialog.Action {
	return dialog.Close(say(promptCancelledMsg{p: d.Prompt}))
}

// ID implements dialog.Dialog.
func (d *promptDialog) ID() string { return promptID }

// Place implements dialog.Placed: the prompt takes the footer's place.
func (d *promptDialog) Place() dialog.Place { return dialog.Footer }

// SetSize implements dialog.Dialog.
func (d *promptDialog) SetSize(width, height int) { d.width, d.height = width, height }

// View implements dialog.Dialog: the prompt, exactly its area.
func (d *promptDialog) View() string {
	return d.cells.Block(d.Render(*d.styles, d.cells, d.width), d.width, d.height)
}

// ShortHelp implements dialog.Dialog: the prompt names its own keys on
// its line, so it adds none.
func (d *promptDialog) ShortHelp() []key.Binding { return nil }

// Update implements dialog.Dialog: every key and paste is the prompt's;
// the server's word on what a message does is kept for the message
// prompt; anything else passes.
func (d *promptDialog) Update(msg tea.Msg) dialog.Action {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.PasteMsg:
		return d.paste(msg)
	case messageEffectMsg:
		return d.effectKnown(msg)
	}
	return dialog.Pass()
}

// key answers a key by the prompt's kind.
func (d *promptDialog) key(msg tea.KeyPressMsg) dialog.Action {
	switch d.Kind {
	case promptConfirm, promptForkConfirm, promptNavigate, promptControl:
		if key.Matches(msg, d.keys.Confirm) {
			return d.submitted()
		}
		return d.cancelled()
	case promptAnswer:
		return d.answerKey(msg)
	case promptBranches:
		return d.pickKey(msg, len(d.pick.choices))
	case promptLinks:
		return d.pickKey(msg, len(d.links.choices))
	case PromptPolicy:
		return d.policyKey(msg)
	case PromptMessage:
		return d.messageKey(msg)
	case promptPendingMessage:
		return d.pendingMessageKey(msg)
	case promptExport:
		switch {
		case key.Matches(msg, d.keys.ExportMarkdown):
			d.format = "md"
		case key.Matches(msg, d.keys.ExportJSON):
			d.format = "json"
		case key.Matches(msg, d.keys.ExportJSONL):
			d.format = "jsonl"
		default:
			return d.cancelled()
		}
		return d.submitted()
	}
	return d.textKey(msg)
}

// pickKey picks an item of B's or O's list by its number; any other key
// cancels.
func (d *promptDialog) pickKey(msg tea.KeyPressMsg, n int) dialog.Action {
	k, ok := choiceOf(d.keys, msg, n)
	if !ok {
		return d.cancelled()
	}
	return dialog.Close(say(promptSubmittedMsg{p: d.Prompt, choice: k}))
}

// openPrompt opens p on the prompt line, in place of any prompt open.
func (m *Conversation) openPrompt(p Prompt) {
	m.overlay.Open(&promptDialog{Prompt: p, keys: m.keys, searches: m.search.hist, styles: &m.styles, cells: m.Cells})
}

// closePrompt closes the prompt line, if it is open.
func (m *Conversation) closePrompt() { m.overlay.Close(promptID) }

// prompt is the open prompt, nil when none is.
func (m *Conversation) prompt() *promptDialog {
	d, _ := m.overlay.Find(promptID).(*promptDialog)
	return d
}

// promptKind is the open prompt's kind, promptNone when none is open.
func (m *Conversation) promptKind() promptKind {
	if d := m.prompt(); d != nil {
		return d.Kind
	}
	return promptNone
}

// promptInput gives a key or a paste to the prompt when it is the top
// dialog (it is the first to read the keys, ctrl+c too, which cancels
// it); it reports false when the prompt is not on top. The prompt's
// commands only carry what it says, so they are answered here, in the
// key's own update: a preview, a jump or a cancel shows on the very frame
// after its key, and a fast typist's previews cannot overtake each other.
func (m *Conversation) promptInput(msg tea.Msg) (tea.Cmd, bool) {
	if top := m.overlay.Top(); top == nil || top.ID() != promptID {
		return nil, false
	}
	cmd, _ := m.overlay.Update(msg)
	if cmd == nil {
		return nil, true
	}
	return m.update(cmd()), true
}

// promptSubmitted does what the prompt asked for.
func (m *Conversation) promptSubmitted(msg promptSubmittedMsg) tea.Cmd {
	p := msg.p
	switch p.Kind {
	case promptJump:
		return m.jumpTo(p.in.Value())
	case promptSearch:
		return m.submitSearch(p)
	case promptExport:
		return m.askExportPath(p.format)
	case promptExportPath:
		return m.startExport(p.format, p.in.Value())
	case promptNarrow:
		return m.setNarrowing(p.in.Value())
	case promptGuards:
		return m.submitGuards(p)
	case promptForkTitle, promptForkMessage:
		return m.forkTextEntered(p)
	case promptForkConfirm, promptNavigate:
		return m.treeConfirmed(p)
	case promptConfirm:
		return m.answerConfirm(p.q)
	case promptBranches:
		return m.branchPicked(p.pick, msg.choice)
	case promptLinks:
		return m.openLink(p.links.choices[msg.choice])
	case promptControl, promptPendingMessage:
		return m.sendControl(p.Ctl)
	case PromptMessage:
		return m.messageSubmitted(p)
	case promptAnswer:
		return m.sendAnswer(p.ans, msg.action)
	}
	return nil
}

// promptCancelled answers a prompt left without an answer: a search
// goes back to where it was, a question says it was cancelled.
func (m *Conversation) promptCancelled(msg promptCancelledMsg) tea.Cmd {
	switch msg.p.Kind {
	case promptSearch:
		return m.cancelSearchPrompt(msg.p)
	case promptConfirm, promptForkConfirm, promptNavigate, promptControl, PromptPolicy:
		return m.setFlash("cancelled")
	case PromptMessage:
		return m.setFlash("message not sent")
	case promptPendingMessage:
		return m.setFlash("message not sent: it is still in the field")
	case promptAnswer:
		return m.setFlash("not answered: the question is still open (a to answer)")
	}
	return nil
}

// promptEdited previews the search typed so far.
func (m *Conversation) promptEdited(msg promptEditedMsg) tea.Cmd {
	m.backTo(msg.back)
	return m.startSearch(msg.text, true, true)
}

// promptPaste gives a paste to the prompt when it is on top, answered in
// the paste's own update as a key is (promptInput).
func (m *Conversation) promptPaste(msg tea.Msg) (tea.Cmd, bool) {
	if _, paste := msg.(tea.PasteMsg); !paste {
		return nil, false
	}
	return m.promptInput(msg)
}
