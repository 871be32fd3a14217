package conversation

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"

	"ohwatch/theme"
	"ohwatch/tui/text"
)

// promptKind says what the footer's input line is asking for.
type promptKind int

const (
	promptNone promptKind = iota
	promptJump
	promptSearch
	promptConfirm // y/n before accepting or rejecting pending actions
	promptExport  // pick an export format
	// promptExportPath asks where the export goes.
	promptExportPath
	// promptForkTitle and promptForkMessage ask b's title and first
	// message, promptForkConfirm y/n before forking (fork.go).
	promptForkTitle
	promptForkMessage
	promptForkConfirm
	// promptNavigate asks y/n before moving HEAD (H).
	promptNavigate
	// promptBranches offers the branches of a branch point by number (B).
	promptBranches
	// promptLinks offers the conversations that came from an event by
	// number (O).
	promptLinks
	// promptControl asks y/n before an interrupt or a policy change,
	// promptPolicy offers the policies by number, promptMessage is the
	// message field (steer.go).
	promptControl
	PromptPolicy
	PromptMessage
	// promptPendingMessage asks what to do about the actions waiting for
	// confirmation before a message goes (steer_pending.go).
	promptPendingMessage
	// promptNarrow asks the text filter (|, narrow.go).
	promptNarrow
	// promptGuards edits the guards' rules (L, guardprompt.go).
	promptGuards
	// promptAnswer answers the agent's ask_user question (askuser.go).
	promptAnswer
)

// Prompt is what the prompt line holds: its kind and what it asks, picks
// or has typed. The prompt dialog owns the one open (promptdialog.go),
// which is drawn in place of the footer; the fleet table draws its
// control prompts with one too.
type Prompt struct {
	Kind promptKind
	// in is the text of the jump and search prompts (textprompt.go).
	in textinput.Model
	// back is where the cursor was when the search prompt opened: esc
	// returns there and each edit previews its search from there.
	back searchOrigin
	// hist is the position in the search history while ↑/↓ browse it.
	hist   int
	q      question     // for promptConfirm: what is asked
	format string       // for promptExportPath: the format chosen
	note   string       // for promptConfirm: the warning shown with the question; for promptGuards: where the guards stand
	fork   ForkPlan     // for the fork and navigate prompts: what is asked
	pick   branchChoice // for promptBranches: what is offered
	links  linkChoice   // for promptLinks: what is offered
	Ctl    ControlAsk   // for the control prompts: what is asked
	Area   *textarea.Model
	ans    *answerDraft // for promptAnswer: the answer being made
}

// Render draws the prompt line, width cells wide at most under cells.
func (p Prompt) Render(s theme.Styles, cells text.Cells, width int) string {
	switch p.Kind {
	case promptJump, promptSearch, promptExportPath, promptNarrow, promptGuards:
		return p.renderText(s, cells, width)
	case promptConfirm:
		verb := "Reject"
		if p.q.accept {
			verb = "Accept"
		}
		noun := "pending action "
		if len(p.q.indices) != 1 {
			noun = "pending actions "
		}
		risks := ""
		if len(p.q.risks) > 0 {
			risks = " (" + strings.Join(p.q.risks, "; ") + ")"
		}
		return s.Warn.Render(verb+" "+noun+ordinals(p.q.indices)+risks+"? [y/n]") + " " + s.Muted.Render(p.note)
	case promptForkTitle, promptForkMessage, promptForkConfirm, promptNavigate:
		return p.renderTreePrompt(s, cells, width)
	case promptAnswer:
		return p.renderAnswer(s, cells, width)
	case promptBranches:
		return p.renderBranches(s, cells, width)
	case promptLinks:
		return p.renderLinks(s, cells, width)
	case promptControl, PromptPolicy, PromptMessage, promptPendingMessage:
		return p.RenderControl(s, width)
	case promptExport:
		return s.Prompt.Render("export as: ") + s.Key.Render("m") + " markdown  " + s.Key.Render("j") + " state json  " +
			s.Key.Render("l") + " events jsonl  " + s.Muted.Render("esc cancel")
	}
	return ""
}
