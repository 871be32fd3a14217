package model

import (
	"strings"
	"testing"
)

// The events below are written by hand from upstream's field names, not
// copied: openhands-sdk/openhands/sdk/event/ask_user.py and
// ask_user_schema.py (AskUserRequestEvent, AskUserResponseEvent,
// QuestionInfo, QuestionOption, AskUserAnswer), event/security.py
// (SecurityAnalysisEvent, PR #5182), event/warning.py (WarningEvent),
// event/conversation_iteration_limit.py and event/security_analyzer.py, on
// upstream's main branch after v1.43.1.
const (
	askRequestJSON = `{"kind":"AskUserRequestEvent","id":"a1","timestamp":"2026-11-20T10:00:00","source":"agent",` +
		`"request_id":"req-1","action_id":"act-1","tool_call_id":"call-1","tool_name":"ask_user","timeout_seconds":300,` +
		`"questions":[{"id":"auth","question":"Which auth strategy?\u001b[31m","options":[` +
		`{"id":"jwt","label":"JWT bearer tokens","description":null},{"id":"session","label":"Server sessions","description":"cookies"}],"multi_select":false},` +
		`{"id":"why","question":"Anything else?","options":[],"multi_select":false}]}`
	askResponseListJSON = `{"kind":"AskUserResponseEvent","id":"a2","source":"user","request_id":"req-1","action":"accept",` +
		`"answers":{"auth":[{"option_id":"jwt","label":"JWT bearer tokens"}],"why":[{"option_id":"text","label":"keep it short"}]}}`
	askResponseOneJSON = `{"kind":"AskUserResponseEvent","id":"a3","source":"user","request_id":"req-1","action":"accept",` +
		`"answers":{"auth":{"option_id":"session","label":"Server sessions"}}}`
	askDeclineJSON  = `{"kind":"AskUserResponseEvent","id":"a4","source":"environment","request_id":"req-1","action":"decline","answers":{}}`
	analysisJSON    = `{"kind":"SecurityAnalysisEvent","id":"s1","source":"environment","analyzer":"LLMSecurityAnalyzer","policy":"ConfirmRisky","risks":{"act-2":"LOW","act-1":"HIGH"},"details":{"act-1":{"p":0.9}}}`
	warningJSON     = `{"kind":"WarningEvent","id":"w1","source":"environment","message":"critic evaluation failed"}`
	iterLimitJSON   = `{"kind":"ConversationIterationLimitEvent","id":"l1","source":"environment","iteration":50,"max_iterations":50,"detail":"per-run budget spent"}`
	analyzerCfgJSON = `{"kind":"SecurityAnalyzerConfigurationEvent","id":"c1","source":"agent","analyzer_type":null}`
)

func decodeOK(t *testing.T, s string) Event {
	t.Helper()
	ev, err := Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if reason, unknown := IsUnknown(ev); unknown {
		t.Fatalf("%s decodes as unknown: %q", ev.Kind, reason)
	}
	return ev
}

func TestAskUserRequestDecodes(t *testing.T) {
	ev := decodeOK(t, askRequestJSON)
	b := ev.Body.(*AskUserRequest)
	if b.RequestID != "req-1" || b.ActionID != "act-1" || b.ToolCallID != "call-1" || b.TimeoutSeconds != 300 || len(b.Questions) != 2 {
		t.Fatalf("%+v", b)
	}
	q := b.Questions[0]
	if q.ID != "auth" || strings.Contains(q.Text, "\x1b") || len(q.Options) != 2 || q.Options[1].Description != "cookies" || q.Options[0].Label != "JWT bearer tokens" {
		t.Fatalf("%+v", q)
	}
	if len(b.Questions[1].Options) != 0 {
		t.Fatalf("a free-form question has no options: %+v", b.Questions[1])
	}
	if !strings.HasPrefix(ev.Summary, "asks 2 questions: Which auth strategy?") {
		t.Errorf("summary %q", ev.Summary)
	}
	if GroupOf(&ev) != GroupAsk || KindOf(&ev).Since == "" {
		t.Errorf("group %s", GroupOf(&ev))
	}
	d, err := ev.Detail()
	if p, ok := d.(*AskUserRequestEvent); err != nil || !ok || p.Questions[0].Options[1].ID != "session" || *p.TimeoutSeconds != 300 {
		t.Fatalf("detail %#v %v", d, err)
	}
}

func TestAskUserResponseDecodesBothAnswerShapes(t *testing.T) {
	b := decodeOK(t, askResponseListJSON).Body.(*AskUserResponse)
	if b.RequestID != "req-1" || b.Action != AskAccept || len(b.Answers) != 2 || b.Answers[0].QuestionID != "auth" || b.Answers[0].Selected[0].OptionID != "jwt" || b.Answers[1].Selected[0].Label != "keep it short" {
		t.Fatalf("%+v", b)
	}
	one := decodeOK(t, askResponseOneJSON)
	if b := one.Body.(*AskUserResponse); len(b.Answers) != 1 || b.Answers[0].Selected[0].OptionID != "session" {
		t.Fatalf("one selection: %+v", b)
	}
	if one.Summary != "answered: Server sessions" {
		t.Errorf("summary %q", one.Summary)
	}
	if ev := decodeOK(t, askDeclineJSON); ev.Summary != "the user declined to answer" || ev.Body.(*AskUserResponse).Action != AskDecline {
		t.Errorf("decline: %q", ev.Summary)
	}
}

func TestAskUserMalformedIsUnknownWithReason(t *testing.T) {
	for _, s := range []string{
		`{"kind":"AskUserRequestEvent","id":"x","request_id":"r","questions":[{"id":1}]}`,
		`{"kind":"AskUserRequestEvent","id":"x","request_id":"r","questions":{}}`,
		`{"kind":"AskUserResponseEvent","id":"x","request_id":"r","action":"accept","answers":{"q":7}}`,
		`{"kind":"SecurityAnalysisEvent","id":"x","risks":{"a":3}}`,
	} {
		ev, err := Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if reason, unknown := IsUnknown(ev); !unknown || reason == "" {
			t.Errorf("%s: %T %q", s, ev.Body, reason)
		}
	}
}

func TestNewerKindsDecode(t *testing.T) {
	a := decodeOK(t, analysisJSON)
	sa := a.Body.(*SecurityAnalysis)
	if sa.Analyzer != "LLMSecurityAnalyzer" || sa.Policy != "ConfirmRisky" || sa.RiskOf("act-1") != "HIGH" || sa.RiskOf("act-2") != "LOW" || sa.RiskOf("nope") != "" {
		t.Fatalf("%+v", sa)
	}
	if a.Summary != "LLMSecurityAnalyzer: HIGH, LOW" {
		t.Errorf("summary %q", a.Summary)
	}
	w := decodeOK(t, warningJSON)
	if w.Body.(*Warning).Message != "critic evaluation failed" || GroupOf(&w) != GroupWarn {
		t.Errorf("%+v", w)
	}
	l := decodeOK(t, iterLimitJSON)
	if b := l.Body.(*IterationLimit); b.Iteration != 50 || b.MaxIterations != 50 || l.Summary != "iteration limit 50/50: per-run budget spent" {
		t.Errorf("%+v %q", b, l.Summary)
	}
	c := decodeOK(t, analyzerCfgJSON)
	if !KindOf(&c).Noise || c.Summary != "no security analyzer configured" {
		t.Errorf("config: %q", c.Summary)
	}
}
