package session

import (
	"fmt"

	"ohwatch/client/files"
)

// WarnUnread says on stderr, in one line, what of a recording could not be
// read (how many lines or files, and the first reason), as every command
// that loads one does.
func WarnUnread(env *Env, cmd string, conv *files.Conversation) {
	if s := conv.WarningSummary(); s != "" {
		fmt.Fprintf(env.Stderr, "ohwatch %s: warning: %s\n", cmd, s)
	}
}
