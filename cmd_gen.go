package main

import (
	"bufio"
	"fmt"
	"os"

	"ohwatch/gen"
)

func runGen(args []string, env *environment) int {
	fs := newFlagSet("gen", "gen DIR --events N [--seed S] [--branches K] [--jsonl]", env.stderr)
	n := fs.Int("events", 1000, "how many events to generate")
	seed := fs.Int64("seed", 1, "the seed: the same seed gives the same bytes")
	branches := fs.Int("branches", 0, "navigate HEAD back K times, leaving K branch points, as a tree (SDK v1.31+) records it")
	jsonl := fs.Bool("jsonl", false, "write one JSONL file (DIR is then the file) instead of the SDK layout")
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		if *n < 1 {
			return usageErr(fmt.Sprintf("--events must be 1 or more, not %d", *n), "")
		}
		if *branches < 0 {
			return usageErr(fmt.Sprintf("--branches must be 0 or more, not %d", *branches), "")
		}
		return onePath(p, "DIR to write", "ohwatch gen DIR --events N")
	})
	if !ok {
		return code
	}
	opts := gen.Options{Events: *n, Seed: *seed, Branches: *branches}
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
