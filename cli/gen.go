package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"ohwatch/gen"
	"ohwatch/internal/sanitize"
	"ohwatch/session"
)

func newGen(env *session.Env) *cobra.Command {
	var n, branches, forks int
	var seed int64
	var jsonl, force, askUser bool
	cmd := &cobra.Command{
		Use:   "gen DIR --events N [--seed S] [--branches K] [--forks F] [--jsonl] [--force]",
		Short: "generate a realistic conversation, or a root of one and its forks",
		RunE: func(cmd *cobra.Command, p []string) error {
			if err := checkGen(p, n, branches, forks, jsonl); err != nil {
				return err
			}
			return exit(runGen(env, p[0], gen.Options{Events: n, Seed: seed, Branches: branches, Forks: forks, AskUser: askUser}, jsonl, force))
		},
	}
	cmd.Flags().IntVar(&n, "events", 1000, "how many events to generate")
	cmd.Flags().Int64Var(&seed, "seed", 1, "the seed: the same seed gives the same bytes")
	cmd.Flags().IntVar(&branches, "branches", 0, "navigate HEAD back K times, leaving K branch points, as a tree (SDK v1.31+) records it")
	cmd.Flags().IntVar(&forks, "forks", 0, "make DIR a conversations root: the conversation in its own directory and F forks of it (POST /fork from an event of it: the branch to that event copied, then a continuation of its own), each its own directory with meta.json naming where it came from")
	cmd.Flags().BoolVar(&askUser, "ask-user", false, "have the agent ask the user a question (ask_user, newer than SDK 1.43.1) early in the first turn, answered after a while")
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "write one JSONL file (DIR is then the file) instead of the SDK layout")
	cmd.Flags().BoolVar(&force, "force", false, "replace DIR whole when it already holds a conversation (or a root of them, or a JSONL file): never merged; without it gen writes only into a new or empty DIR")
	return cmd
}

// checkGen checks gen's arguments.
func checkGen(p []string, n, branches, forks int, jsonl bool) error {
	switch {
	case n < 1:
		return usageErr(fmt.Sprintf("--events must be 1 or more, not %d", n), "")
	case branches < 0:
		return usageErr(fmt.Sprintf("--branches must be 0 or more, not %d", branches), "")
	case forks < 0:
		return usageErr(fmt.Sprintf("--forks must be 0 or more, not %d", forks), "")
	case forks > 0 && jsonl:
		return usageErr("--forks writes a directory of conversations, not one JSONL file", "drop --jsonl or --forks")
	}
	return onePath(p, "DIR to write", "ohwatch gen DIR --events N")
}

// runGen writes the generated conversation (or root) to dir: a new path
// or an empty directory, or with force in place of what dir held.
func runGen(env *session.Env, dir string, opts gen.Options, jsonl, force bool) int {
	target, err := prepareGenTarget(dir, jsonl, force)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch gen: %s\n", sanitize.Line(strings.TrimPrefix(err.Error(), errTargetTaken.Error()+": ")))
		if errors.Is(err, errTargetTaken) {
			return exitUsage
		}
		return 1
	}
	dirs, code := writeGen(env, target.write, opts, jsonl)
	if code != 0 {
		target.abandon()
		return code
	}
	if err := target.commit(); err != nil {
		target.abandon()
		fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
		return 1
	}
	if opts.Forks > 0 {
		fmt.Fprintf(env.Stdout, "wrote a conversations root to %s\n", dir)
		for i, d := range dirs {
			what := "a fork of it"
			if i == 0 {
				what = fmt.Sprintf("the conversation, %d events", opts.Events)
			}
			fmt.Fprintf(env.Stdout, "  %s  %s\n", filepath.Base(d), what)
		}
		return 0
	}
	fmt.Fprintf(env.Stdout, "wrote %d events to %s\n", opts.Events, dir)
	return 0
}

// writeGen writes the generated conversation (or root: its directories,
// the conversation first) to dir.
func writeGen(env *session.Env, dir string, opts gen.Options, jsonl bool) ([]string, int) {
	if opts.Forks > 0 {
		dirs, err := gen.WriteRoot(dir, opts)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
			return nil, 1
		}
		return dirs, 0
	}
	if jsonl {
		f, err := os.Create(dir)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
			return nil, 1
		}
		w := bufio.NewWriterSize(f, 1<<20)
		err = gen.WriteJSONL(w, opts)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
			return nil, 1
		}
	} else if err := gen.WriteDir(dir, opts); err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
		return nil, 1
	}
	return nil, 0
}
