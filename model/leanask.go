package model

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"ohwatch/internal/sanitize"
)

// The lean decoders of the ask_user pair, the security analysis, warnings
// and the iteration limit (ask.go). Their nested values are small and rare,
// so they are read with decodeJSON; every string is sanitised for the
// screen and is a copy, never an alias of the event's bytes.

// decodeAskUserRequest reads an AskUserRequestEvent.
func decodeAskUserRequest(r *leanReader, f *topFields) (Body, string) {
	b := &AskUserRequest{
		RequestID:      strings.Clone(r.str(f.requestID, "request_id")),
		ActionID:       strings.Clone(r.str(f.actionID, "action_id")),
		ToolCallID:     strings.Clone(r.str(f.toolCallID, "tool_call_id")),
		ToolName:       strings.Clone(sanitize.Line(r.str(f.toolName, "tool_name"))),
		TimeoutSeconds: r.number(f.timeoutSeconds, "timeout_seconds"),
	}
	if arr := r.array(f.questions, "questions"); arr != nil {
		var qs []struct {
			ID      string `json:"id"`
			Text    string `json:"question"`
			Options []struct {
				ID          string  `json:"id"`
				Label       string  `json:"label"`
				Description *string `json:"description"`
			} `json:"options"`
			MultiSelect bool `json:"multi_select"`
		}
		if err := decodeJSON(arr, &qs); err != nil {
			r.mismatch("questions", "a list of questions", arr)
			return b, ""
		}
		for _, q := range qs {
			nq := Question{ID: sanitize.Line(q.ID), Text: capLine(q.Text), MultiSelect: q.MultiSelect}
			for _, o := range q.Options {
				opt := QuestionOption{ID: sanitize.Line(o.ID), Label: capLine(o.Label)}
				if o.Description != nil {
					opt.Description = capLine(*o.Description)
				}
				nq.Options = append(nq.Options, opt)
			}
			b.Questions = append(b.Questions, nq)
		}
	}
	return b, askSummary(b)
}

// askSummary is "asks: first question (+N more)".
func askSummary(b *AskUserRequest) string {
	switch len(b.Questions) {
	case 0:
		return "asks the user (no question)"
	case 1:
		return capLine("asks: " + b.Questions[0].Text)
	}
	return capLine(fmt.Sprintf("asks %d questions: %s", len(b.Questions), b.Questions[0].Text))
}

// decodeAskUserResponse reads an AskUserResponseEvent. An answer per question
// is a list of selections, or one selection as the first release sent it
// (upstream normalize_ask_user_answers accepts both).
func decodeAskUserResponse(r *leanReader, f *topFields) (Body, string) {
	b := &AskUserResponse{
		RequestID: strings.Clone(r.str(f.requestID, "request_id")),
		Action:    strings.Clone(sanitize.Line(r.str(f.action, "action"))),
	}
	if obj := r.object(f.answers, "answers"); obj != nil {
		var raw map[string]json.RawMessage
		if err := decodeJSON(obj, &raw); err != nil {
			r.mismatch("answers", "an object of answers", obj)
			return b, ""
		}
		ids := make([]string, 0, len(raw))
		for id := range raw {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			v := raw[id]
			var sel []AnswerChoice
			if len(v) > 0 && v[0] == '{' {
				var one AnswerChoice
				if err := decodeJSON(v, &one); err != nil {
					r.mismatch("answers."+sanitize.Line(id), "a selection", v)
					return b, ""
				}
				sel = []AnswerChoice{one}
			} else if err := decodeJSON(v, &sel); err != nil {
				r.mismatch("answers."+sanitize.Line(id), "a list of selections", v)
				return b, ""
			}
			for k := range sel {
				sel[k].OptionID = sanitize.Line(sel[k].OptionID)
				sel[k].Label = capLine(sel[k].Label)
			}
			b.Answers = append(b.Answers, QuestionAnswer{QuestionID: sanitize.Line(id), Selected: sel})
		}
	}
	return b, answerSummary(b)
}

// answerSummary is "answered: label, label" or "declined" / "cancelled".
func answerSummary(b *AskUserResponse) string {
	switch b.Action {
	case AskDecline:
		return "the user declined to answer"
	case AskCancel:
		return "the question was cancelled"
	}
	var labels []string
	for _, a := range b.Answers {
		for _, s := range a.Selected {
			labels = append(labels, s.Label)
		}
	}
	if len(labels) == 0 {
		return "answered without a selection"
	}
	return capLine("answered: " + strings.Join(labels, ", "))
}

// decodeSecurityAnalysis reads a SecurityAnalysisEvent.
func decodeSecurityAnalysis(r *leanReader, f *topFields) (Body, string) {
	b := &SecurityAnalysis{
		Analyzer: strings.Clone(sanitize.Line(r.str(f.analyzer, "analyzer"))),
		Policy:   strings.Clone(sanitize.Line(r.str(f.policy, "policy"))),
	}
	if obj := r.object(f.risks, "risks"); obj != nil {
		var risks map[string]string
		if err := decodeJSON(obj, &risks); err != nil {
			r.mismatch("risks", "an object of risks", obj)
			return b, ""
		}
		for id, risk := range risks {
			b.Risks = append(b.Risks, ActionRisk{ActionID: id, Risk: sanitize.Line(risk)})
		}
		sort.Slice(b.Risks, func(i, j int) bool { return b.Risks[i].ActionID < b.Risks[j].ActionID })
	}
	return b, analysisSummary(b)
}

// analysisSummary is "analyzer: HIGH, LOW" with the highest risk first.
func analysisSummary(b *SecurityAnalysis) string {
	name := b.Analyzer
	if name == "" {
		name = "security analyzer"
	}
	if len(b.Risks) == 0 {
		return capLine(name + ": no action analysed")
	}
	risks := make([]string, len(b.Risks))
	for i, r := range b.Risks {
		risks[i] = r.Risk
	}
	sort.SliceStable(risks, func(i, j int) bool { return RiskRank(risks[i]) > RiskRank(risks[j]) })
	return capLine(name + ": " + strings.Join(risks, ", "))
}

// RiskRank orders security risks: UNKNOWN (or anything else) 0, LOW 1,
// MEDIUM 2, HIGH 3.
func RiskRank(risk string) int {
	switch strings.ToUpper(risk) {
	case "LOW":
		return 1
	case "MEDIUM":
		return 2
	case "HIGH":
		return 3
	}
	return 0
}

// decodeWarning reads a WarningEvent.
func decodeWarning(r *leanReader, f *topFields) (Body, string) {
	b := &Warning{Message: strings.Clone(r.line(f.message, "message"))}
	return b, capLine("warning: " + b.Message)
}

// decodeIterationLimit reads a ConversationIterationLimitEvent.
func decodeIterationLimit(r *leanReader, f *topFields) (Body, string) {
	it, _ := r.integer(f.iteration, "iteration")
	limit, _ := r.integer(f.maxIterations, "max_iterations")
	b := &IterationLimit{Iteration: int(it), MaxIterations: int(limit), Detail: strings.Clone(r.line(f.detail, "detail"))}
	return b, joinSummary(fmt.Sprintf("iteration limit %d/%d", b.Iteration, b.MaxIterations), b.Detail)
}

// decodeAnalyzerConfig reads a SecurityAnalyzerConfigurationEvent.
func decodeAnalyzerConfig(r *leanReader, f *topFields) (Body, string) {
	b := &SecurityAnalyzerConfig{AnalyzerType: strings.Clone(sanitize.Line(r.str(f.analyzerType, "analyzer_type")))}
	if b.AnalyzerType == "" {
		return b, "no security analyzer configured"
	}
	return b, capLine("security analyzer: " + b.AnalyzerType)
}
