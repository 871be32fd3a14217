package model

import "strings"

// StatusWords spells an execution status for a sentence ("waiting for
// confirmation", "in an unknown state" for none): the TUI, headless and
// the agent-server client all say it the same way.
func StatusWords(status string) string {
	if status == "" {
		return "in an unknown state"
	}
	return strings.ReplaceAll(status, "_", " ")
}
