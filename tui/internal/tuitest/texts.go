package tuitest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/reducer"
)

// EvMessage is a MessageEvent with one text part, as raw JSON.
func EvMessage(id, source, text string) string {
	return `{"id":"` + id + `","timestamp":"2026-01-27T03:56:24.000000","source":"` + source +
		`","llm_message":{"role":"` + map[string]string{"user": "user", "agent": "assistant"}[source] +
		`","content":[{"type":"text","text":"` + text + `"}]},"kind":"MessageEvent"}`
}

// WideTextLog is a conversation of emoji with skin tones and joiners, CJK,
// combining marks and emoji presentation selectors: text whose cells a
// terminal may count differently from its runes.
func WideTextLog(tb testing.TB) *reducer.Log {
	family := "👩\u200d👩\u200d👧\u200d👦"
	return FixtureLog(tb,
		EvMessage("w1", "user", strings.Repeat("👍🏽", 30)+" thumbs up"),
		EvMessage("w2", "agent", strings.Repeat(family+" ", 20)+"family"),
		EvMessage("w3", "user", "漢字とかなの混じった文章、全角の句読点。"+strings.Repeat("中文测试", 10)),
		EvMessage("w4", "agent", "combining: e\u0301te\u0301 cafe\u0301 n\u0303 a\u0308\u0301 "+strings.Repeat("Z\u0335\u0321\u0358 ", 10)),
		EvMessage("w5", "agent", "⚠️ ❤️ ✈️ ☀️ presentation selectors ⚠️ ❤️ ✈️ ☀️ "+strings.Repeat("🏳\ufe0f\u200d🌈 ", 12)),
	)
}

// UnicodeCore is the terminal's report that it clusters graphemes.
var UnicodeCore = tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet}
