package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/tui"
)

func runWatch(args []string, env *environment) int {
	fs := newFlagSet("watch", "watch URL --conversation ID [--session-key-file F] [--headless] [--json]", env.stderr)
	var vf viewFlags
	vf.bind(fs)
	conv := fs.String("conversation", "", "the conversation `ID` (dashed uuid or 32 hex)")
	keyFile := fs.String("session-key-file", "", "read the session key from `FILE` (else SESSION_API_KEY)")
	keyFlag := fs.String("session-key", "", "the session key (visible to other users: prefer SESSION_API_KEY)")
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		const hint = "ohwatch watch http://HOST:PORT --conversation ID"
		switch {
		case len(p) == 0:
			return usageErr("missing the agent-server URL", hint)
		case len(p) > 1:
			return usageErr(fmt.Sprintf("unexpected argument %q (only one URL)", p[1]), hint)
		case *conv == "":
			return usageErr("missing --conversation ID", "ohwatch watch "+p[0]+" --conversation ID ('ohwatch ls "+p[0]+"' lists them)")
		}
		if err := checkServerURL(p[0]); err != nil {
			return err
		}
		return checkConversationID(*conv, "copy the id from the agent-server ('ohwatch ls "+p[0]+"' lists them)")
	})
	if !ok {
		return code
	}
	key, err := sessionKey(*keyFile, *keyFlag, env.getenv, env.stderr)
	if err != nil {
		return reportUsage(env.stderr, "watch", usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY"))
	}
	// Whatever a server echoes, the key does not reach the terminal or
	// the log in any form.
	vf.secrets = new(model.Secrets)
	vf.secrets.Add(key)
	env, flush := env.withSecrets(vf.secrets)
	defer flush()
	logger, closeLog, err := vf.logger()
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch watch: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	ctx, stop := interruptible()
	defer stop()
	return watchAgentServer(ctx, env, &vf, logger, pos[0], *conv, key, "")
}

// watchAgentServer watches one conversation of an agent-server, headless or
// in the TUI. title may be empty: the server's title is used.
func watchAgentServer(ctx context.Context, env *environment, vf *viewFlags, logger *slog.Logger, url, id, key, title string) int {
	c, err := agentserver.New(url, key, agentserver.WithLogger(logger))
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch: %v\n", err)
		return exitUsage
	}
	id = model.NormalizeConversationID(id)
	if title == "" {
		// The server chose it: it may echo a key like any other answer.
		title = vf.secrets.Redact(serverTitle(ctx, c, id))
	}
	// A server never reached fails fast (exit 4); one that was live keeps
	// being retried, with the header counting the attempts.
	s := serverSession(ctx, c, id, title)
	links := newServerLinks(c, id)
	s.links = links
	if b, ok := s.branching.(brancher); ok {
		// A fork made here shows under its event at once, not at the
		// links' next refresh, and the views opened from here (a fork
		// made with b) have links of their own.
		b.rel = links.rel
		s.branching = b
	}
	return present(ctx, env, vf, s)
}

// serverTitle asks the server for the conversation's title, briefly: the
// header falls back to the id, and the watch itself reports any real
// connection problem.
func serverTitle(ctx context.Context, c *agentserver.Client, id string) string {
	tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if info, err := c.Conversation(tctx, id); err == nil && info.Title != "" {
		return info.Title
	}
	return id
}

// confirmer answers a waiting conversation through the agent-server.
type confirmer struct {
	c  *agentserver.Client
	id string
}

// Respond implements tui.Controls: the answer goes out only if the server
// still waits on exactly the actions the user was asked about.
func (cf confirmer) Respond(ctx context.Context, accept bool, actionIDs []string) error {
	err := cf.c.RespondToActions(ctx, cf.id, actionIDs, accept, "Rejected in ohwatch.")
	var nw *agentserver.NotWaitingError
	if errors.As(err, &nw) {
		return fmt.Errorf("%w: %s", tui.ErrNotSent, nw.Reason)
	}
	return err
}

// exitForError maps a client error to an exit code: auth, not found and
// unreachable are 4.
func exitForError(err error) int {
	if errors.Is(err, agentserver.ErrAuth) || errors.Is(err, agentserver.ErrNotFound) || errors.Is(err, agentserver.ErrConnect) {
		return headless.ExitUnreachable
	}
	return 1
}
