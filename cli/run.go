package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/headless"
	"ohwatch/internal/sanitize"
	"ohwatch/session"
)

// exitUsage is the exit code for bad flags or arguments.
const exitUsage = headless.ExitUsage

// Run runs ohwatch with args (the process's, without the program name) on
// the process's streams and environment, and returns the exit code.
func Run(args []string) int {
	return run(args, &session.Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ, IsTerminal: stdoutIsTerminal()})
}

// run runs ohwatch in env: tests run whole commands in-process through it.
func run(args []string, env *session.Env) int {
	e := withProcessSettings(*env)
	root := newRoot(&e)
	root.SetArgs(args)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if dash := singleDashFlag(cmd, args); dash != nil {
			return dash
		}
		return withFlagSuggestion(cmd, err)
	})
	cmd, err := root.ExecuteC()
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	}
	name := ""
	if cmd != nil && cmd != root {
		name = cmd.Name()
	}
	return reportUsage(e.Stderr, name, err)
}

// withProcessSettings completes env with what every command heeds of the
// process, read here once: NO_COLOR (no-color.org: set and not empty
// turns colours off) and the version.
func withProcessSettings(env session.Env) session.Env {
	env.NoColor = env.Getenv("NO_COLOR") != ""
	env.Version = releaseVersion()
	return env
}

// exitCode ends a command with its exit code: a command's RunE returns it
// (exit), a mistake in its usage returns a *session.UsageError.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit code %d", int(c)) }

// exit is the error a command returns to end with code.
func exit(code int) error {
	if code == 0 {
		return nil
	}
	return exitCode(code)
}

// newRoot is the ohwatch command with every subcommand.
func newRoot(env *session.Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "ohwatch",
		Short:         "watch OpenHands agent conversations live, replay them with time travel",
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			// Alone in a terminal, ohwatch opens the fleet over the
			// configured sources, as k9s and lazygit open their UI; piped,
			// it says what it can do.
			if !env.IsTerminal {
				rootHelp(env.Stdout, cmd)
				return nil
			}
			return bareFleet(env, cmd)
		},
	}
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return loadConfig(env, cmd) }
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetVersionTemplate("{{.Version}}\n")
	root.Version = versionLine(stamp(version, commit, date, readBuildInfo()))
	root.Flags().BoolP("version", "v", false, "print the version, commit, build date, Go version and platform")
	root.AddCommand(newDemo(env), newWatch(env), newCloud(env), newReplay(env), newList(env), newFleet(env),
		newState(env), newExport(env), newServe(env), newGen(env), newCompare(env), newConfig(env), newVersion(env))
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		// Help asked for goes to stdout, so that 'ohwatch fleet -h | less'
		// shows it; only mistakes go to stderr.
		if cmd == root {
			rootHelp(env.Stdout, root)
			return
		}
		printHelp(env.Stdout, cmd)
	})
	root.SetHelpCommand(newHelp(env, root))
	root.InitDefaultCompletionCmd()
	addCompletions(root)
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Short = "print a shell completion script: completion bash|zsh|fish|powershell"
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(_ *cobra.Command, args []string) error {
				const hint = "ohwatch completion bash|zsh|fish|powershell"
				if len(args) == 0 {
					return usageErr("missing the shell", hint)
				}
				return usageErr(fmt.Sprintf("no completion for the shell %q", args[0]), hint)
			}
		}
	}
	return root
}

// newHelp is `ohwatch help [COMMAND]`: the help asked for, on stdout.
func newHelp(env *session.Env, root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "print ohwatch's help, a command's, or a topic's: environment, exit-codes, guards",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				rootHelp(env.Stdout, root)
				return nil
			}
			if t := topic(args[0]); t != nil && len(args) == 1 {
				t.write(env.Stdout)
				return nil
			}
			target, rest, err := root.Find(args)
			if err != nil || target == root || len(rest) > 0 {
				if t := nearTopic(args[0]); t != "" {
					return usageErr(fmt.Sprintf("unknown command or topic %q", sanitize.Line(args[0])), fmt.Sprintf("did you mean 'ohwatch help %s'?", t))
				}
				return unknownCommand(root, args[0])
			}
			printHelp(env.Stdout, target)
			return nil
		},
	}
}

// newVersion is `ohwatch version`, as --version.
func newVersion(env *session.Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version, commit, build date, Go version and platform",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := noArgs(args, "ohwatch version"); err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, versionLine(stamp(version, commit, date, readBuildInfo())))
			return nil
		},
	}
}

// unknownCommand is the mistake of a command name ohwatch does not have.
func unknownCommand(root *cobra.Command, name string) error {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	if s := rootSuggestion(root, name); s != "" {
		return usageErr(fmt.Sprintf("unknown command %q", sanitize.Line(name)),
			fmt.Sprintf("did you mean 'ohwatch %s'? 'ohwatch help' says what each command does", s))
	}
	return usageErr(fmt.Sprintf("unknown command %q", sanitize.Line(name)),
		fmt.Sprintf("the commands are %s; 'ohwatch help' says what each does", strings.Join(names, ", ")))
}
