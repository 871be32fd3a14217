package files

import (
	"fmt"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Unreadable says why nothing of c can be shown, nil when something can:
// no event was read (a placeholder of one too large is not one) and either some were rejected or there is no base
// state to show instead (an empty file, a file of garbage, a directory
// whose only event is invalid). Every command that loads a recording
// refuses such a one the same way, with the first reason.
func (c *Conversation) Unreadable() error { return c.UnreadableAfter(Readable(c.Events)) }

// UnreadableAfter is Unreadable for a conversation whose events were
// streamed elsewhere: read is how many of them Readable counted.
func (c *Conversation) UnreadableAfter(read int) error {
	if read > 0 || c.Base != nil && len(c.Warnings) == 0 {
		return nil
	}
	if len(c.Warnings) == 0 {
		return fmt.Errorf("no event in %s: it is empty", sanitize.Line(c.Path))
	}
	return fmt.Errorf("no event could be read from %s (%s; first: %s)", sanitize.Line(c.Path), format.Plural(len(c.Warnings), "problem"), sanitize.Line(c.Warnings[0]))
}

// Readable counts the events that are not placeholders of unreadable ones.
func Readable(evs []model.Event) int {
	n := 0
	for i := range evs {
		if evs[i].Kind != model.KindUnreadable {
			n++
		}
	}
	return n
}

// WarningSummary is the one line a command says about what could not be
// read of c (lines or files rejected, events kept as unknown): how many,
// and the first; "" when there were none.
func (c *Conversation) WarningSummary() string {
	if len(c.Warnings) == 0 {
		return ""
	}
	return fmt.Sprintf("%s reading %s (first: %s)", format.Plural(len(c.Warnings), "warning"), sanitize.Line(c.Path), sanitize.Line(c.Warnings[0]))
}
