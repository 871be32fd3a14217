package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"ohwatch/export"
	"ohwatch/session"
)

func newState(env *session.Env) *cobra.Command {
	var at int
	var asJSON bool
	var branch *string
	cmd := &cobra.Command{
		Use:   "state PATH [--at N] [--branch ID] [--json]",
		Short: "print the derived state after the first N events",
		RunE: func(cmd *cobra.Command, p []string) error {
			if cmd.Flags().Changed("at") && at < 0 {
				return usageErr(fmt.Sprintf("--at must be 0 or more, not %d", at), "leave --at out to apply every event")
			}
			if err := onePath(p, "PATH of the recording", "ohwatch state PATH [--at N] (an SDK directory, JSONL file or trajectory zip)"); err != nil {
				return err
			}
			if err := existingPath(p[0]); err != nil {
				return err
			}
			env, flush := env.WithSecrets(session.EnvSecrets(env.Getenv))
			defer flush()
			ctx, stop := session.Interruptible()
			defer stop()
			conv, log, err := session.LoadLog(ctx, p[0])
			if err != nil {
				return exit(session.LoadFailed(ctx, env, "state", err))
			}
			session.WarnUnread(env, "state", conv)
			path, err := session.BranchPath(log, *branch)
			if err != nil {
				return err
			}
			doc := export.StateOn(log, path, at, conv.Warnings, true).Named(conv.ID, conv.Title)
			if asJSON {
				err = export.WriteState(env.Stdout, doc)
			} else {
				err = export.WriteStateText(env.Stdout, conv.ID, conv.Title, doc)
			}
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch state: %v\n", err)
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&at, "at", -1, "apply only the first `N` events of the path (default: all)")
	branch = bindBranch(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: the status with its verdict (\"finished (recorded, inferred)\"), metrics with metrics_reported")
	return cmd
}
