package main

import (
	"fmt"

	"ohwatch/client/files"
)

// warnUnread says on stderr, in one line, what of a recording could not be
// read (how many lines or files, and the first reason), as every command
// that loads one does.
func warnUnread(env *environment, cmd string, conv *files.Conversation) {
	if s := conv.WarningSummary(); s != "" {
		fmt.Fprintf(env.stderr, "ohwatch %s: warning: %s\n", cmd, s)
	}
}
