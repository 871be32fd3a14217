package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"ohwatch/gen"
	"ohwatch/session"
)

func newGen(env *session.Env) *cobra.Command {
	var n, branches, forks int
	var seed int64
	var jsonl, askUser bool
	cmd := &cobra.Command{
		Use:   "gen DIR --events N [--seed S] [--branches K] [--forks F] [--jsonl]",
		Short: "generate a realistic conversation, or a root of one and its forks",
		RunE: func(cmd *cobra.Command, p []string) error {
			if err := checkGen(p, n, branches, forks, jsonl); err != nil {
				return err
			}
			return exit(runGen(env, p[0], gen.Options{Events: n, Seed: seed, Branches: branches, Forks: forks, AskUser: askUser}, jsonl))
		},
	}
	cmd.Flags().IntVar(&n, "events", 1000, "how many events to generate")
	cmd.Flags().Int64Var(&seed, "seed", 1, "the seed: the same seed gives the same bytes")
	cmd.Flags().IntVar(&branches, "branches", 0, "navigate HEAD back K times, leaving K branch points, as a tree (SDK v1.31+) records it")
	cmd.Flags().IntVar(&forks, "forks", 0, "make DIR a conversations root: the conversation in its own directory and F forks of it (POST /fork from an event of it: the branch to that event copied, then a continuation of its own), each its own directory with meta.json naming where it came from")
	cmd.Flags().BoolVar(&askUser, "ask-user", false, "have the agent ask the user a question (ask_user, newer than SDK 1.43.1) early in the first turn, answered after a while")
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "write one JSONL file (DIR is then the file) instead of the SDK layout")
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

// runGen writes the generated conversation (or root) to dir.
func runGen(env *session.Env, dir string, opts gen.Options, jsonl bool) int {
	if opts.Forks > 0 {
		dirs, err := gen.WriteRoot(dir, opts)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "wrote a conversations root to %s\n  %s  the conversation, %d events\n", dir, filepath.Base(dirs[0]), opts.Events)
		for _, d := range dirs[1:] {
			fmt.Fprintf(env.Stdout, "  %s  a fork of it\n", filepath.Base(d))
		}
		return 0
	}
	if jsonl {
		f, err := os.Create(dir)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
			return 1
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
			return 1
		}
	} else if err := gen.WriteDir(dir, opts); err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch gen: %v\n", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "wrote %d events to %s\n", opts.Events, dir)
	return 0
}
