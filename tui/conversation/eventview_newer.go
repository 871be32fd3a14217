package conversation

import (
	"encoding/json"
	"sort"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// The inspector's layouts of the kinds newer than SDK 1.43.1 (model's
// ask.go): the ask_user pair, the security analyzer's verdict, warnings and
// the iteration limit.

// risk shows the LLM's own security risk and, when the analyzer judged the
// action, its verdict beside it: the policy reads the analyzer's.
func (v *eventView) risk(llm string) {
	if v.analysis == nil {
		v.field("risk", llm)
		return
	}
	verdict := v.analysis.RiskOf(v.ev.ID)
	if verdict == "" {
		v.field("risk", llm)
		return
	}
	if llm == "" {
		llm = "none given"
	}
	line := llm + " (the LLM's) · " + verdict + " (" + v.analysis.Analyzer + ", what " + v.analysis.Policy + " reads)"
	if model.RiskRank(verdict) != model.RiskRank(llm) {
		line += " — they differ"
	}
	v.field("risk", line)
}

// newerKind renders the payload of a kind newer than 1.43.1.
func (v *eventView) newerKind(d any) {
	switch d := d.(type) {
	case *model.AskUserRequestEvent:
		v.field("request", d.RequestID)
		v.field("action", d.ActionID)
		if d.TimeoutSeconds != nil {
			v.field("timeout", Itoa(int(*d.TimeoutSeconds))+"s")
		}
		for _, q := range d.Questions {
			v.blank()
			title := "Question " + q.ID
			if q.MultiSelect {
				title += " (several answers allowed)"
			}
			v.out = append(v.out, v.styles.PaneFocus.Render(sanitize.Line(title)))
			v.text(q.Question)
			if len(q.Options) == 0 {
				v.out = append(v.out, v.styles.Muted.Render("  (free text)"))
			}
			for k, o := range q.Options {
				line := "  " + Itoa(k+1) + ". " + sanitize.Line(o.Label) + v.styles.Muted.Render(" ["+sanitize.Line(o.ID)+"]")
				if o.Description != nil && *o.Description != "" {
					line += v.styles.Muted.Render(" — " + sanitize.Line(*o.Description))
				}
				v.out = append(v.out, line)
			}
		}
	case *model.AskUserResponseEvent:
		v.field("request", d.RequestID)
		v.field("answer", d.Action)
		ids := make([]string, 0, len(d.Answers))
		for id := range d.Answers {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			v.field("  "+id, answerLabels(d.Answers[id]))
		}
	case *model.SecurityAnalysisEvent:
		v.field("analyzer", d.Analyzer)
		v.field("policy", d.Policy)
		ids := make([]string, 0, len(d.Risks))
		for id := range d.Risks {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			v.field("  "+id, d.Risks[id])
		}
	case *model.WarningEvent:
		v.out = append(v.out, v.styles.Warn.Render("warning"))
		v.text(d.Message)
	case *model.ConversationIterationLimitEvent:
		v.field("iterations", Itoa(d.Iteration)+" of "+Itoa(d.MaxIterations))
		v.section("Detail", d.Detail)
	}
}

// answerLabels is one question's selections as labels ("JWT, Sessions"),
// in either shape an answer takes (one object or a list).
func answerLabels(raw json.RawMessage) string {
	var list []model.AnswerChoice
	if json.Unmarshal(raw, &list) != nil {
		var one model.AnswerChoice
		if json.Unmarshal(raw, &one) != nil {
			return string(raw)
		}
		list = []model.AnswerChoice{one}
	}
	labels := make([]string, len(list))
	for k, s := range list {
		labels[k] = s.Label
	}
	return strings.Join(labels, ", ")
}

// analysisScan bounds the forward search for an action's analysis: it
// follows the action's batch.
const analysisScan = 64

// analysisOf finds the SecurityAnalysisEvent that judged the action at
// index i among the events that follow it.
func (m *Conversation) analysisOf(i int) *model.SecurityAnalysis {
	ev := m.Log.Event(i)
	if _, ok := ev.Body.(*model.Action); !ok || ev.ID == "" {
		return nil
	}
	for j := i + 1; j < min(m.Log.Len(), i+1+analysisScan); j++ {
		if a, ok := m.Log.Event(j).Body.(*model.SecurityAnalysis); ok && a.RiskOf(ev.ID) != "" {
			return a
		}
	}
	return nil
}
