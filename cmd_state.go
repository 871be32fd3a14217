package main

import (
	"context"
	"fmt"

	"ohwatch/client/files"
	"ohwatch/export"
	"ohwatch/reducer"
)

// loadLog reads a recorded conversation and folds it into a log. A file that
// cannot be read at all is an error; what can be read is kept, with warnings.
// The load ends early, with ctx's error, when ctx does (Ctrl-C).
func loadLog(ctx context.Context, path string) (*files.Conversation, *reducer.Log, error) {
	conv, err := files.LoadContext(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if err := conv.Unreadable(); err != nil {
		return nil, nil, err
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return conv, log, nil
}

// loadFailed reports a recording that could not be loaded: exit 130 when
// the user interrupted the load, else 2 (the PATH holds no conversation).
func loadFailed(ctx context.Context, env *environment, cmd string, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(env.stderr, "ohwatch %s: %v\n", cmd, context.Cause(ctx))
		return interruptedExit(ctx)
	}
	fmt.Fprintf(env.stderr, "ohwatch %s: %v\n", cmd, err)
	return exitUsage
}

func runState(args []string, env *environment) int {
	fs := newFlagSet("state", "state PATH [--at N] [--branch ID] [--json]", env.stderr)
	at := fs.Int("at", -1, "apply only the first `N` events of the path (default: all)")
	branch := bindBranch(fs)
	asJSON := fs.Bool("json", false, "print one JSON object: the status with its verdict (\"finished (recorded, inferred)\"), metrics with metrics_reported")
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		if flagSet(fs, "at") && *at < 0 {
			return usageErr(fmt.Sprintf("--at must be 0 or more, not %d", *at), "leave --at out to apply every event")
		}
		if err := onePath(p, "PATH of the recording", "ohwatch state PATH [--at N] (an SDK directory, JSONL file or trajectory zip)"); err != nil {
			return err
		}
		return existingPath(p[0])
	})
	if !ok {
		return code
	}
	ctx, stop := interruptible()
	defer stop()
	conv, log, err := loadLog(ctx, pos[0])
	if err != nil {
		return loadFailed(ctx, env, "state", err)
	}
	warnUnread(env, "state", conv)
	p, err := branchPath(log, *branch)
	if err != nil {
		return reportUsage(env.stderr, "state", err)
	}
	doc := export.StateOn(log, p, *at, conv.Warnings, true)
	if *asJSON {
		if err := export.WriteState(env.stdout, doc); err != nil {
			fmt.Fprintf(env.stderr, "ohwatch state: %v\n", err)
			return 1
		}
		return 0
	}
	if err := export.WriteStateText(env.stdout, conv.ID, conv.Title, doc); err != nil {
		fmt.Fprintf(env.stderr, "ohwatch state: %v\n", err)
		return 1
	}
	return 0
}
