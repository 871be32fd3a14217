package cli

import (
	"github.com/spf13/cobra"

	"ohwatch/session"
)

func newReplay(env *session.Env) *cobra.Command {
	var vf viewFlags
	var follow bool
	var branch *string
	cmd := &cobra.Command{
		Use:   "replay PATH [--follow] [--headless [--branch ID]] [--json] [--record DIR]",
		Short: "replay a recorded conversation (SDK dir, seed layout, JSONL, trajectory zip)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := onePath(args, "PATH of the recording to replay", "ohwatch replay PATH (an SDK directory, JSONL file or trajectory zip; 'ohwatch ls' lists local ones)"); err != nil {
				return err
			}
			if *branch != "" && (follow || !vf.useHeadless(env)) {
				return usageErr("--branch picks the path of the headless lines of a recording", "use it with --headless and without --follow")
			}
			if err := existingPath(args[0]); err != nil {
				return err
			}
			// A key the agent echoed into the recording is not shown,
			// printed or recorded again (session.EnvSecrets).
			secrets := session.EnvSecrets(env.Getenv)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			o, err := vf.options(env, secrets)
			if err != nil {
				return err
			}
			ctx, stop := session.Interruptible()
			defer stop()
			path := args[0]
			switch {
			case follow:
				return exit(session.Follow(ctx, env, o, path))
			case *branch != "":
				return exit(session.ReplayBranch(ctx, env, o, path, *branch))
			}
			return exit(session.Replay(ctx, env, o, path))
		},
	}
	vf.bind(cmd.Flags())
	cmd.Flags().BoolVar(&follow, "follow", false, "keep reading a directory that is still being written; a finished is confirmed as soon as its base_state.json says so")
	branch = bindBranch(cmd.Flags())
	return cmd
}
