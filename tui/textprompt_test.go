package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestBrowseFilterIsATextInput(t *testing.T) {
	b := newBrowse(browseRows(), 120, 30)
	b, _ = browseKeys(t, b, "/")
	next, _ := b.Update(tea.PasteMsg{Content: "http\x1b[2J"})
	b = next.(browser)
	if strings.ContainsRune(b.filter, '\x1b') {
		t.Fatalf("a paste put %q in the filter", b.filter)
	}
	if !strings.HasPrefix(b.filter, "http") {
		t.Fatalf("a paste into the filter gives %q", b.filter)
	}
	b, _ = browseKeys(t, b, "ctrl+u")
	b = typeBrowse(b, "the handlers")
	b, _ = browseKeys(t, b, "ctrl+w")
	if b.filter != "the " {
		t.Fatalf("ctrl+w leaves %q", b.filter)
	}
	b, _ = browseKeys(t, b, "ctrl+u")
	b = typeBrowse(b, "HTP")
	b, _ = browseKeys(t, b, "left")
	b = typeBrowse(b, "T")
	if got := titles(b); b.filter != "HTTP" || len(got) != 1 || got[0] != "Refactor the HTTP handlers" {
		t.Fatalf("← and typing: filter %q shows %q", b.filter, got)
	}
	if !strings.Contains(b.render(), "/HTT") {
		t.Fatalf("the filter line does not show the text:\n%s", b.render())
	}
	// Reopening the filter line edits the kept filter.
	b, _ = browseKeys(t, b, "enter", "/", "backspace")
	if b.filter != "HTT" {
		t.Fatalf("reopened filter: %q", b.filter)
	}
}

func TestLongPromptKeepsTheCursorOnScreen(t *testing.T) {
	m := newModel(Options{Log: trajectory(t, "confirmation_mode")}, 80, 24)
	m, _ = press(t, m, ":")
	m = typeText(t, m, strings.Repeat("9", 150))
	lines := strings.Split(screen(m), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "9█") || !strings.Contains(last, "…") {
		t.Fatalf("a long prompt hides its end:\n%s", last)
	}
}
