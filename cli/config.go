package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"ohwatch/config"
	"ohwatch/session"
)

// configured are the commands that read the configuration file: those
// that show a TUI, and config itself. The others (gen, export, serve, …)
// never fail on it.
var configured = map[string]bool{"demo": true, "watch": true, "cloud": true, "replay": true, "ls": true, "fleet": true, "config": true}

// loadConfig reads the configuration file into env for the commands that
// heed it. A mistake in it is one line naming the key and its line, and
// exit 2.
func loadConfig(env *session.Env, cmd *cobra.Command) error {
	if !configured[cmd.Name()] || cmd.Parent() == nil || cmd.Parent().Parent() != nil {
		return nil
	}
	c, err := config.Load(config.Path(env.Getenv))
	if err == nil {
		_, _, err = session.KeyMaps(c)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch: config: %v\n", err)
		return exitCode(exitUsage)
	}
	env.Config = c
	return nil
}

// newConfig is `ohwatch config`: the effective configuration, each value
// with where it came from (default, the file's line, env, flag).
func newConfig(env *session.Env) *cobra.Command {
	var themeF themeFlag
	var noNotify bool
	cmd := &cobra.Command{
		Use:   "config [--theme T] [--no-notify]",
		Short: "print the effective configuration and where each value came from",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := noArgs(args, "ohwatch config"); err != nil {
				return err
			}
			c := *env.Config
			if err := c.ApplyEnv(env.Getenv); err != nil && !themeF.set {
				return usageErr(err.Error(), "OHWATCH_THEME takes dark, light or auto")
			}
			if themeF.set {
				c.Theme.Set(themeF.mode, config.Origin{Kind: config.Flag, Name: "--theme"})
			}
			if noNotify {
				c.Notifications.Set(false, config.Origin{Kind: config.Flag, Name: "--no-notify"})
			}
			if err := c.Write(env.Stdout, session.KeyDefaults()...); err != nil {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().Var(&themeF, "theme", themeUsage)
	cmd.Flags().BoolVar(&noNotify, "no-notify", false, "as the TUI commands' --no-notify")
	return cmd
}
