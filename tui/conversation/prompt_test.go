package conversation

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// lastRow is the bottom line of a screen: the footer, where a prompt is
// typed.
func lastRow(screen string) string {
	return screen[strings.LastIndexByte(screen, '\n')+1:]
}

// searchPrompt reads the text of the open search prompt off the screen:
// what follows "/" up to the hint, the cursor's block left out; ok is
// false when the footer shows no search prompt.
func searchPrompt(screen string) (text string, ok bool) {
	row, found := strings.CutPrefix(ansi.Strip(lastRow(screen)), "/")
	if !found {
		return "", false
	}
	row, _, found = strings.Cut(row, "  enter keep · ↑ earlier searches")
	if !found {
		return "", false
	}
	return strings.Replace(row, "█", "", 1), true
}
