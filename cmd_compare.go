package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/compare"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// `ohwatch compare A B` lines two runs up step by step (package compare)
// and shows them in the compare screen, or prints the report (--json,
// --md, text when stdout is not a terminal). A run is a recording's path
// or an agent-server conversation, http://HOST:PORT/api/conversations/ID
// (or http://HOST:PORT#ID). `compare FORK` compares a fork with the
// conversation it was forked from, along the branch it was forked from.

func runCompare(args []string, env *environment) int {
	fs := newFlagSet("compare", "compare A [B] [--json | --md] [--session-key-file F]", env.stderr)
	asJSON := fs.Bool("json", false, "print the report as one JSON object instead of the compare screen")
	asMD := fs.Bool("md", false, "print the report as markdown (for a pull request or a notebook)")
	keyFile := fs.String("session-key-file", "", "read the agent-server's session key from `FILE` (else SESSION_API_KEY)")
	var specs []runSpec
	_, code, ok := checkCommand(fs, args, func(p []string) error {
		const hint = "ohwatch compare A B (recording paths or http://HOST:PORT/api/conversations/ID), or compare FORK"
		switch {
		case len(p) == 0:
			return usageErr("missing the runs to compare", hint)
		case len(p) > 2:
			return usageErr(fmt.Sprintf("unexpected argument %q (two runs at most)", p[2]), hint)
		case *asJSON && *asMD:
			return usageErr("--json and --md both given", "pick one report format")
		}
		for _, s := range p {
			spec, err := parseRunSpec(s)
			if err != nil {
				return err
			}
			specs = append(specs, spec)
		}
		return nil
	})
	if !ok {
		return code
	}
	key, err := sessionKey(*keyFile, "", env.getenv, env.stderr)
	if err != nil {
		return reportUsage(env.stderr, "compare", usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY"))
	}
	secrets := new(model.Secrets)
	secrets.Add(key)
	env, flush := env.withSecrets(secrets)
	defer flush()
	ctx, stop := interruptible()
	defer stop()
	if len(specs) == 1 {
		parent, through, err := parentOf(ctx, specs[0], key)
		if err != nil {
			return compareFailed(ctx, env, err)
		}
		specs = []runSpec{parent, specs[0]}
		specs[0].through = through
	}
	if *asJSON || *asMD || !env.isTerminal {
		return compareReport(ctx, env, specs, key, *asJSON, *asMD)
	}
	return compareScreen(ctx, env, specs, key)
}

// runSpec is one run named on the command line: a recording's path, or a
// conversation of an agent-server.
type runSpec struct {
	path       string
	server, id string
	// through is the event whose branch is compared ("" for HEAD's).
	through string
}

// String names the run as the user gave it.
func (s runSpec) String() string {
	if s.path != "" {
		return s.path
	}
	return s.server + "/api/conversations/" + s.id
}

// parseRunSpec reads a run: a URL with a scheme is an agent-server
// conversation, anything else a path that must exist.
func parseRunSpec(s string) (runSpec, error) {
	if !strings.Contains(s, "://") {
		if err := existingPath(s); err != nil {
			return runSpec{}, err
		}
		return runSpec{path: s}, nil
	}
	const hint = "name the conversation: http://HOST:PORT/api/conversations/ID (or http://HOST:PORT#ID)"
	u, err := url.Parse(s)
	if err != nil {
		return runSpec{}, usageErr(fmt.Sprintf("%q is not a URL", s), hint)
	}
	id := u.Fragment
	u.Fragment = ""
	if id == "" {
		k := strings.LastIndex(u.Path, "/conversations/")
		if k < 0 {
			return runSpec{}, usageErr(fmt.Sprintf("%s names no conversation", u.Redacted()), hint)
		}
		id = strings.Trim(u.Path[k+len("/conversations/"):], "/")
		u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path[:k], "/api"), "/")
	}
	base := u.String()
	if err := checkServerURL(base); err != nil {
		return runSpec{}, err
	}
	if err := checkConversationID(id, hint); err != nil {
		return runSpec{}, err
	}
	return runSpec{server: base, id: model.NormalizeConversationID(id)}, nil
}

// notAFork says a single run given is no fork.
type notAFork struct{ run string }

func (e notAFork) Error() string {
	return e.run + " was forked from no other conversation: give two runs to compare"
}

// parentOf is the conversation a fork was forked from, on the same
// source, and the event it was forked at.
func parentOf(ctx context.Context, fork runSpec, key string) (runSpec, string, error) {
	if fork.path != "" {
		r, err := files.Open(fork.path)
		if err != nil {
			return runSpec{}, "", err
		}
		h := r.Header()
		r.Close()
		if h.ParentID == "" {
			return runSpec{}, "", notAFork{fork.path}
		}
		dir, err := siblingDir(ctx, fork.path, h.ParentID)
		if err != nil {
			return runSpec{}, "", err
		}
		return runSpec{path: dir}, h.ForkedFromEvent, nil
	}
	c, err := agentserver.New(fork.server, key)
	if err != nil {
		return runSpec{}, "", err
	}
	info, err := c.Conversation(ctx, fork.id)
	if err != nil {
		return runSpec{}, "", err
	}
	if info.ForkedFromConversationID == "" {
		return runSpec{}, "", notAFork{fork.String()}
	}
	return runSpec{server: fork.server, id: model.NormalizeConversationID(info.ForkedFromConversationID)}, info.ForkedFromEventID, nil
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
// interrupted, 2 for a single run that is no fork or a path that holds
// no conversation, 4 for a server that could not be reached or does not
// have the conversation.
func compareFailed(ctx context.Context, env *environment, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(env.stderr, "ohwatch compare: %v\n", context.Cause(ctx))
		return interruptedExit(ctx)
	}
	fmt.Fprintf(env.stderr, "ohwatch compare: %s\n", model.SanitizeLine(err.Error()))
	if code := exitForError(err); code != 1 {
		return code
	}
	return exitUsage
}

// loadRun reads a run whole for the report: a recording from disk, a
// conversation from the agent-server's event history.
func loadRun(ctx context.Context, spec runSpec, name, key string) (*compare.Run, error) {
	side := compare.Side{Name: name, Through: spec.through}
	if spec.path != "" {
		conv, log, err := loadLog(ctx, spec.path)
		if err != nil {
			return nil, err
		}
		side.Title, side.Source, side.ConversationID = titleOf(conv.Title, conv.ID, spec.path), spec.path, conv.ID
		side.Log, side.Ended = log, true
		return compare.NewRun(side), nil
	}
	c, err := agentserver.New(spec.server, key)
	if err != nil {
		return nil, err
	}
	evs, err := c.Events(ctx, spec.id)
	if err != nil {
		return nil, err
	}
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	side.Title, side.Source, side.ConversationID, side.Log = serverTitle(ctx, c, spec.id), spec.String(), spec.id, log
	return compare.NewRun(side), nil
}

// compareReport prints the report of the two runs.
func compareReport(ctx context.Context, env *environment, specs []runSpec, key string, asJSON, asMD bool) int {
	var runs [2]*compare.Run
	for k, name := range []string{"A", "B"} {
		run, err := loadRun(ctx, specs[k], name, key)
		if err != nil {
			if specs[k].path != "" && ctx.Err() == nil {
				return loadFailed(ctx, env, "compare", err)
			}
			return compareFailed(ctx, env, err)
		}
		runs[k] = run
	}
	r := compare.NewReport(compare.Compare(runs[0], runs[1]))
	write := compare.WriteText
	switch {
	case asJSON:
		write = compare.WriteJSON
	case asMD:
		write = compare.WriteMarkdown
	}
	if err := write(env.stdout, r); err != nil {
		fmt.Fprintf(env.stderr, "ohwatch compare: %v\n", err)
		return 1
	}
	return 0
}

// compareScreen shows the compare screen: recordings stream in as they
// are read, agent-server conversations are watched live, so the
// comparison follows both.
func compareScreen(ctx context.Context, env *environment, specs []runSpec, key string) int {
	sctx, end := context.WithCancel(ctx)
	defer end()
	var sides [2]tui.CompareSide
	for k, spec := range specs {
		side, err := openSide(sctx, spec, key)
		if err != nil {
			if spec.path != "" && ctx.Err() == nil {
				return reportUsage(env.stderr, "compare", missingPath(spec.path, err, "give a conversation directory, a JSONL file or a trajectory zip"))
			}
			return compareFailed(ctx, env, err)
		}
		sides[k] = side
	}
	err := tui.RunCompare(ctx, tui.CompareOptions{A: sides[0], B: sides[1], NoColor: env.getenv("NO_COLOR") != ""})
	return tuiExit(ctx, ctx, err, env.stderr)
}

// openSide opens a run for the compare screen, with its feed.
func openSide(ctx context.Context, spec runSpec, key string) (tui.CompareSide, error) {
	if spec.path != "" {
		r, err := files.Open(spec.path)
		if err != nil {
			return tui.CompareSide{}, err
		}
		h := r.Header()
		feed := make(chan model.Batch, 4)
		go streamInto(ctx, r, feed)
		return tui.CompareSide{Title: titleOf(h.Title, h.ID, spec.path), Source: "replay " + spec.path,
			Log: reducer.NewLog(h.Base, h.EventFiles), Feed: feed, Through: spec.through, Ended: true}, nil
	}
	c, err := agentserver.New(spec.server, key)
	if err != nil {
		return tui.CompareSide{}, err
	}
	s := serverSession(ctx, c, spec.id, serverTitle(ctx, c, spec.id))
	return tui.CompareSide{Title: s.title, Source: s.source, Log: s.log, Feed: s.feed, Live: true, Through: spec.through}, nil
}

// Parent implements tui.Parented: the conversation of the same root this
// one's meta.json names as where it was forked from, as last listed.
func (l localLinks) Parent() (tui.Link, bool) { return l.rel.parent(l.id) }

// Parent implements tui.Parented: the conversation the server says this
// one was forked from, as last listed.
func (l serverLinks) Parent() (tui.Link, bool) { return l.rel.parent(l.id) }

// parent is the conversation id was forked from (its title, and the event
// forked at), as last read; ok is false for one that is no fork.
func (r *relatives) parent(id string) (tui.Link, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, l := range r.links {
		if l.ID != id || l.Event == "" || r.parents[k] == "" {
			continue
		}
		out := tui.Link{ID: r.parents[k], Event: l.Event}
		for _, p := range r.links {
			if p.ID == out.ID {
				out.Title = p.Title
			}
		}
		return out, true
	}
	return tui.Link{}, false
}
