package conversation

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// ErrNotSent marks an answer that Controls withheld because the
// conversation no longer waits on the actions the user was asked about;
// its message says why ("not sent: the conversation is running, …").
var ErrNotSent = errors.New("not sent")

// RespondTimeout bounds an accept or reject request with its check.
const RespondTimeout = 30 * time.Second

// question is what an accept or reject prompt asks about: the exact
// actions pending when it opened. The answer is sent only while the
// conversation still waits on exactly these, so it can never land on an
// action the user did not see.
type question struct {
	accept  bool
	ids     []string // the actions' event ids, oldest first
	indices []int    // their positions in the log, for the prompt
	// risks are where the security analyzer's verdict differs from or
	// adds to the LLM's ("#7 LOW, analyzer HIGH"): the policy reads the
	// analyzer's, so the person sees both before answering.
	risks []string
}

// askConfirm opens the accept or reject question about the actions the
// conversation waits on now (the latest state, wherever the cursor is).
func (m *Conversation) askConfirm(accept bool) tea.Cmd {
	var q question
	q.accept = accept
	for _, p := range m.Log.Latest().Pending {
		q.ids = append(q.ids, p.ID)
		q.indices = append(q.indices, p.Index)
		if p.AnalyzerRisk != "" {
			q.risks = append(q.risks, tui.Ordinal(p.Index)+" "+sanitize.Line(cmp.Or(p.SecurityRisk, "no risk"))+", analyzer "+sanitize.Line(p.AnalyzerRisk))
		}
	}
	if len(q.ids) == 0 {
		// Waiting, but none of its actions reached the log: there is
		// nothing the user could have seen to answer about.
		return m.setFlash("no pending action to answer: none has arrived yet")
	}
	// Upstream caveat (protocol §5): up to SDK 1.43.1 a message sent while
	// waiting approves the pending actions too; M says what it does on
	// the server at hand before sending (steer_pending.go).
	m.openPrompt(Prompt{Kind: promptConfirm, q: q, note: "(a message may approve them too; M asks first)"})
	return nil
}

// staleReason says why the conversation no longer waits on exactly the
// actions of q, as of the newest event; "" while it still does.
func staleReason(st reducer.State, q question) string {
	if st.Status != model.StatusWaitingForConfirmation {
		return "the conversation is " + strings.ReplaceAll(st.Status, "_", " ") + ", no longer waiting for confirmation"
	}
	if len(st.Pending) != len(q.ids) {
		return "the conversation now waits on other actions"
	}
	for k, p := range st.Pending {
		if p.ID != q.ids[k] {
			return "the conversation now waits on other actions"
		}
	}
	return ""
}

// answerConfirm sends the answer to q, unless the live state already
// shows the question is stale: then nothing is sent and the footer says
// why. Controls checks again with the server just before sending.
func (m *Conversation) answerConfirm(q question) tea.Cmd {
	if why := staleReason(m.Log.Latest(), q); why != "" || m.feedDone {
		if why == "" {
			why = "the connection has ended"
		}
		return m.setFlash("not sent: " + why)
	}
	c := m.Opts.Controls
	if c == nil {
		return nil
	}
	verb := "rejecting"
	if q.accept {
		verb = "accepting"
	}
	flash, to := m.setFlash(verb+" "+ordinals(q.indices)+"…"), m.Addr()
	return tea.Batch(flash, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), RespondTimeout)
		defer cancel()
		return respondDoneMsg{Addr: to, accept: q.accept, indices: q.indices, err: c.Respond(ctx, q.accept, q.ids)}
	})
}

// withdrawStale closes an open question once the conversation stops
// waiting on its actions (after new events arrived): the footer says why.
func (m *Conversation) withdrawStale() tea.Cmd {
	p := m.prompt()
	if p == nil || p.Kind != promptConfirm {
		return nil
	}
	why := staleReason(m.Log.Latest(), p.q)
	if why == "" {
		return nil
	}
	m.closePrompt()
	return m.setFlash("question withdrawn: " + why)
}

// respondDone reports how an answer went.
func (m *Conversation) respondDone(msg respondDoneMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, ErrNotSent):
		return m.setFlash(sanitize.Line(msg.err.Error()))
	case msg.err != nil:
		return m.setFlash("could not respond: " + SanitizeErr(msg.err))
	}
	verb := "rejected"
	if msg.accept {
		verb = "accepted"
	}
	return m.setFlash(verb + " " + ordinals(msg.indices))
}

// ordinals lists event positions for a sentence: "#7", "#7, #8".
func ordinals(indices []int) string {
	out := make([]string, len(indices))
	for k, i := range indices {
		out[k] = tui.Ordinal(i)
	}
	return strings.Join(out, ", ")
}
