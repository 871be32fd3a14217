package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/session"
)

func newExport(env *session.Env) *cobra.Command {
	var format, outPath string
	var content bool
	var branch *string
	cmd := &cobra.Command{
		Use:   "export PATH --format md|json|jsonl|otlp [--branch ID] [-o FILE]",
		Short: "export a conversation: a transcript, the derived state, the events or traces",
		RunE: func(cmd *cobra.Command, p []string) error {
			if !session.ValidFormat(format) && format != "otlp" {
				return usageErr(fmt.Sprintf("unknown --format %q", format), "--format takes "+strings.Join(session.ExportFormats, ", ")+", otlp")
			}
			if err := onePath(p, "PATH of the recording to export", "ohwatch export PATH --format md (an SDK directory, JSONL file or trajectory zip)"); err != nil {
				return err
			}
			if err := existingPath(p[0]); err != nil {
				return err
			}
			secrets := session.EnvSecrets(env.Getenv)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			ctx, stop := session.Interruptible()
			defer stop()
			conv, log, err := session.LoadLog(ctx, p[0])
			if err != nil {
				return exit(session.LoadFailed(ctx, env, "export", err))
			}
			path, err := session.BranchPath(log, *branch)
			if err != nil {
				return err
			}
			// What could not be read is said beside the export, not inside it.
			session.WarnUnread(env, "export", conv)
			w := env.Stdout
			if outPath != "" {
				f, err := os.Create(outPath)
				if err != nil {
					fmt.Fprintf(env.Stderr, "ohwatch export: %v\n", err)
					return exitCode(1)
				}
				defer f.Close()
				// Cut the keys out of the file too; flushed before it closes.
				var flushFile func() error
				w, flushFile = session.RedactingWriter(f, secrets)
				defer flushFile()
			}
			if format == "otlp" {
				err = session.ExportOTLP(w, env, conv, log, path, p[0], content)
			} else {
				err = session.WriteExport(w, format, conv.ID, session.TitleOf(conv.Title, conv.ID, p[0]), log, path, conv.Warnings, true)
			}
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch export: %v\n", err)
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "md", "md (a readable transcript), json (the derived state), jsonl (the events) or otlp (OTLP/JSON traces)")
	cmd.Flags().StringVarP(&outPath, "output", "o", "", "write to `FILE` instead of stdout")
	cmd.Flags().BoolVar(&content, "otlp-content", false, otlpContentUsage)
	branch = bindBranch(cmd.Flags())
	return cmd
}
