package model

import "testing"

// TestStatusWords: a status reads as words, none as an unknown state.
func TestStatusWords(t *testing.T) {
	for status, want := range map[string]string{
		StatusWaitingForConfirmation: "waiting for confirmation",
		StatusFinished:               "finished",
		"":                           "in an unknown state",
	} {
		if got := StatusWords(status); got != want {
			t.Errorf("StatusWords(%q) = %q, want %q", status, got, want)
		}
	}
}
