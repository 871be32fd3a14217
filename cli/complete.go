package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/client/files"
	"ohwatch/internal/sanitize"
)

// completionBudget bounds the listing a completion makes: a tab press
// must answer at once, whatever the root holds or however slow its disk.
// Completion never asks a server (one that does not answer would hang
// the shell).
const completionBudget = time.Second

// addCompletions completes the conversations of the local root: a
// recording's PATH (replay, state, export) and watch's --conversation ID,
// each offered with its title.
func addCompletions(root *cobra.Command) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "replay", "state", "export":
			c.ValidArgsFunction = completePath
		case "watch":
			_ = c.RegisterFlagCompletionFunc("conversation", completeID)
		}
	}
}

// localConversations lists the local root within the budget; nothing
// when it cannot.
func localConversations() []files.Summary {
	ctx, cancel := context.WithTimeout(context.Background(), completionBudget)
	defer cancel()
	list, err := files.ListContext(ctx, files.DefaultRoot())
	if err != nil {
		return nil
	}
	return list
}

// completePath offers the local root's conversation directories for the
// PATH argument, and the shell's files as well (a recording may be
// anywhere).
func completePath(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, s := range localConversations() {
		if strings.HasPrefix(s.Path, toComplete) {
			out = append(out, cobra.CompletionWithDesc(s.Path, describe(s)))
		}
	}
	return out, cobra.ShellCompDirectiveDefault
}

// completeID offers the local root's conversation ids for --conversation.
func completeID(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, s := range localConversations() {
		if strings.HasPrefix(s.ID, toComplete) {
			out = append(out, cobra.CompletionWithDesc(s.ID, describe(s)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// describe is a conversation's description in a completion menu: its
// title, on one line (shells print it as is).
func describe(s files.Summary) string {
	return sanitize.Line(s.Title)
}
