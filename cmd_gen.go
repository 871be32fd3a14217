package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"ohwatch/gen"
)

func runGen(args []string, env *environment) int {
	fs := newFlagSet("gen", "gen DIR --events N [--seed S] [--branches K] [--forks F] [--jsonl]", env.stderr)
	n := fs.Int("events", 1000, "how many events to generate")
	seed := fs.Int64("seed", 1, "the seed: the same seed gives the same bytes")
	branches := fs.Int("branches", 0, "navigate HEAD back K times, leaving K branch points, as a tree (SDK v1.31+) records it")
	forks := fs.Int("forks", 0, "make DIR a conversations root: the conversation in its own directory and F forks of it (POST /fork from an event of it: the branch to that event copied, then a continuation of its own), each its own directory with meta.json naming where it came from")
	jsonl := fs.Bool("jsonl", false, "write one JSONL file (DIR is then the file) instead of the SDK layout")
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		if *n < 1 {
			return usageErr(fmt.Sprintf("--events must be 1 or more, not %d", *n), "")
		}
		if *branches < 0 {
			return usageErr(fmt.Sprintf("--branches must be 0 or more, not %d", *branches), "")
		}
		if *forks < 0 {
			return usageErr(fmt.Sprintf("--forks must be 0 or more, not %d", *forks), "")
		}
		if *forks > 0 && *jsonl {
			return usageErr("--forks writes a directory of conversations, not one JSONL file", "drop --jsonl or --forks")
		}
		return onePath(p, "DIR to write", "ohwatch gen DIR --events N")
	})
	if !ok {
		return code
	}
	opts := gen.Options{Events: *n, Seed: *seed, Branches: *branches, Forks: *forks}
	if *forks > 0 {
		dirs, err := gen.WriteRoot(pos[0], opts)
		if err != nil {
			fmt.Fprintf(env.stderr, "ohwatch gen: %v\n", err)
			return 1
		}
		fmt.Fprintf(env.stdout, "wrote a conversations root to %s\n  %s  the conversation, %d events\n", pos[0], filepath.Base(dirs[0]), *n)
		for _, d := range dirs[1:] {
			fmt.Fprintf(env.stdout, "  %s  a fork of it\n", filepath.Base(d))
		}
		return 0
	}
	if *jsonl {
		f, err := os.Create(pos[0])
		if err != nil {
			fmt.Fprintf(env.stderr, "ohwatch gen: %v\n", err)
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
			fmt.Fprintf(env.stderr, "ohwatch gen: %v\n", err)
			return 1
		}
	} else if err := gen.WriteDir(pos[0], opts); err != nil {
		fmt.Fprintf(env.stderr, "ohwatch gen: %v\n", err)
		return 1
	}
	fmt.Fprintf(env.stdout, "wrote %d events to %s\n", *n, pos[0])
	return 0
}
