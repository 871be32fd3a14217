package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/compare"
	"ohwatch/headless"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/compareview"
)

// CompareRun is one run of `compare`: a recording's path, a
// conversation of an agent-server, or a Cloud conversation (Cloud set, ID
// its id).
type CompareRun struct {
	Path       string
	Server, ID string
	Cloud      bool
	// Through is the event whose branch is compared ("" for HEAD's).
	Through string
}

// String names the run as the user gave it.
func (r CompareRun) String() string {
	if r.Path != "" {
		return r.Path
	}
	if r.Cloud {
		return CloudRunPrefix + r.ID
	}
	return r.Server + "/api/conversations/" + r.ID
}

// CompareFormat is how `compare` shows its two runs.
type CompareFormat int

const (
	// CompareScreen is the compare screen of the TUI.
	CompareScreen CompareFormat = iota
	// CompareText, CompareJSON and CompareMarkdown print the report.
	CompareText
	CompareJSON
	CompareMarkdown
)

// Compare lines two runs up step by step (package compare) and shows them
// in the compare screen or prints the report; a single run is a fork,
// compared with the conversation it was forked from, along the branch it
// was forked from. keys reach the runs' servers. It returns the exit code.
func Compare(ctx context.Context, env *Env, runs []CompareRun, keys CompareKeys, format CompareFormat) int {
	if len(runs) == 1 {
		parent, through, err := parentOf(ctx, runs[0], keys)
		if err != nil {
			return compareFailed(ctx, env, err)
		}
		parent.Through = through
		runs = []CompareRun{parent, runs[0]}
	}
	if format == CompareScreen {
		return compareScreen(ctx, env, runs, keys)
	}
	return compareReport(ctx, env, runs, keys, format)
}

// notAFork says a single run given is no fork.
type notAFork struct{ run string }

func (e notAFork) Error() string {
	return e.run + " was forked from no other conversation: give two runs to compare"
}

// parentOf is the conversation a fork was forked from, on the same
// source, and the event it was forked at.
func parentOf(ctx context.Context, fork CompareRun, keys CompareKeys) (CompareRun, string, error) {
	if fork.Path != "" {
		r, err := files.Open(fork.Path)
		if err != nil {
			return CompareRun{}, "", err
		}
		h := r.Header()
		r.Close()
		if h.ParentID == "" {
			return CompareRun{}, "", notAFork{fork.Path}
		}
		dir, err := siblingDir(ctx, fork.Path, h.ParentID)
		if err != nil {
			return CompareRun{}, "", err
		}
		return CompareRun{Path: dir}, h.ForkedFromEvent, nil
	}
	if fork.Cloud {
		return CompareRun{}, "", notAFork{fork.String()}
	}
	c, err := agentserver.New(fork.Server, keys.Session)
	if err != nil {
		return CompareRun{}, "", err
	}
	info, err := c.Conversation(ctx, fork.ID)
	if err != nil {
		return CompareRun{}, "", err
	}
	if info.ForkedFromConversationID == "" {
		return CompareRun{}, "", notAFork{fork.String()}
	}
	return CompareRun{Server: fork.Server, ID: model.NormalizeConversationID(info.ForkedFromConversationID)}, info.ForkedFromEventID, nil
}

// siblingDir is the directory of conversation id in the root that holds
// dir.
func siblingDir(ctx context.Context, dir, id string) (string, error) {
	root := filepath.Dir(filepath.Clean(dir))
	if d := filepath.Join(root, id); files.IsConversationDir(d) {
		return d, nil
	}
	sums, err := files.ListContext(ctx, root)
	if err != nil {
		return "", err
	}
	for _, s := range sums {
		if s.ID == id {
			return s.Path, nil
		}
	}
	return "", fmt.Errorf("%s was forked from %s, which is not in %s", dir, id, root)
}

// compareFailed reports a run that could not be read: 130 when
// interrupted, 4 for a server (an agent-server, Cloud) that could not be
// reached, refused the key or does not have the conversation, else 2 (a
// single run that is no fork, a path that holds no conversation).
func compareFailed(ctx context.Context, env *Env, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(env.Stderr, "ohwatch compare: %v\n", context.Cause(ctx))
		return InterruptedExit(ctx)
	}
	fmt.Fprintf(env.Stderr, "ohwatch compare: %s\n", sanitize.Line(err.Error()))
	if errors.Is(err, agentserver.ErrAuth) || errors.Is(err, agentserver.ErrNotFound) || errors.Is(err, agentserver.ErrConnect) || errors.As(err, new(cloudError)) {
		return headless.ExitUnreachable
	}
	return headless.ExitUsage
}

// loadRun reads a run whole for the report: a recording from disk, a
// conversation from the agent-server's event history.
func loadRun(ctx context.Context, run CompareRun, name string, keys CompareKeys) (*compare.Run, error) {
	side := compare.Side{Name: name, Through: run.Through}
	if run.Path != "" {
		// The compare screen seeks in both logs as its user moves.
		conv, log, err := loadLog(ctx, run.Path, reducer.NewLog)
		if err != nil {
			return nil, err
		}
		side.Title, side.Source, side.ConversationID = TitleOf(conv.Title, conv.ID, run.Path), run.Path, conv.ID
		side.Log, side.Ended = log, true
		return compare.NewRun(side), nil
	}
	if run.Cloud {
		return loadCloudRun(ctx, run, side, keys)
	}
	c, err := agentserver.New(run.Server, keys.Session)
	if err != nil {
		return nil, err
	}
	evs, err := c.Events(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	side.Title, side.Source, side.ConversationID, side.Log = serverTitle(ctx, c, run.ID), run.String(), run.ID, log
	return compare.NewRun(side), nil
}

// compareReport prints the report of the two runs.
func compareReport(ctx context.Context, env *Env, runs []CompareRun, keys CompareKeys, format CompareFormat) int {
	var sides [2]*compare.Run
	for k, name := range []string{"A", "B"} {
		run, err := loadRun(ctx, runs[k], name, keys)
		if err != nil {
			if runs[k].Path != "" && ctx.Err() == nil {
				return LoadFailed(ctx, env, "compare", err)
			}
			return compareFailed(ctx, env, err)
		}
		sides[k] = run
	}
	r := compare.NewReport(compare.Compare(sides[0], sides[1]))
	write := compare.WriteText
	switch format {
	case CompareJSON:
		write = compare.WriteJSON
	case CompareMarkdown:
		write = compare.WriteMarkdown
	}
	if err := write(env.Stdout, r); err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch compare: %v\n", err)
		return 1
	}
	return 0
}

// compareScreen shows the compare screen: recordings stream in as they
// are read, agent-server conversations are watched live, so the
// comparison follows both.
func compareScreen(ctx context.Context, env *Env, runs []CompareRun, keys CompareKeys) int {
	sctx, end := context.WithCancel(ctx)
	defer end()
	var sides [2]compareview.CompareSide
	for k, run := range runs {
		side, err := openSide(sctx, run, keys)
		if err != nil {
			if run.Path != "" && ctx.Err() == nil {
				return ReportUsage(env.Stderr, "compare", Usage(fmt.Sprintf("%s: %v", run.Path, err), "give a conversation directory, a JSONL file or a trajectory zip"))
			}
			return compareFailed(ctx, env, err)
		}
		sides[k] = side
	}
	err := compareview.RunCompare(ctx, compareview.CompareOptions{A: sides[0], B: sides[1], NoColor: env.NoColor, Profile: env.colourProfile()})
	return tuiExit(ctx, ctx, err, env.Stderr)
}

// openSide opens a run for the compare screen, with its feed.
func openSide(ctx context.Context, run CompareRun, keys CompareKeys) (compareview.CompareSide, error) {
	if run.Path != "" {
		r, err := files.Open(run.Path)
		if err != nil {
			return compareview.CompareSide{}, err
		}
		h := r.Header()
		feed := make(chan model.Batch, 4)
		go streamInto(ctx, r, feed, nil)
		// Read from files: the keys are cut out here (filekeys.go).
		return compareview.CompareSide{Title: keys.Secrets.Redact(TitleOf(h.Title, h.ID, run.Path)), Source: "replay " + run.Path,
			Log: reducer.NewLog(h.Base, h.EventFiles), Feed: redactedFeed(ctx, keys.Secrets, feed), Through: run.Through, Ended: true}, nil
	}
	if run.Cloud {
		return openCloudSide(ctx, run, keys)
	}
	c, err := agentserver.New(run.Server, keys.Session)
	if err != nil {
		return compareview.CompareSide{}, err
	}
	s := serverSession(ctx, c, run.ID, serverTitle(ctx, c, run.ID))
	return compareview.CompareSide{Title: s.title, Source: s.source, Log: s.log, Feed: s.feed, Live: true, Through: run.Through}, nil
}
