package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/model"
)

// listing is one row of `ohwatch ls`, and one object of `ls --json`.
type listing struct {
	ID           string    `json:"id"`
	Title        string    `json:"title"`
	Status       string    `json:"status"`
	Verdict      string    `json:"verdict"`
	StatusFinal  bool      `json:"status_final"`
	Events       int       `json:"events"`
	CostUSD      float64   `json:"cost_usd"`
	CostKnown    bool      `json:"cost_known"`
	LastActivity time.Time `json:"last_activity"`
	Path         string    `json:"path,omitempty"`
	// ParentID is the conversation this one was forked from or delegated
	// by; ForkedFromEvent the event it was forked at.
	ParentID        string `json:"parent_id,omitempty"`
	ForkedFromEvent string `json:"forked_from_event_id,omitempty"`
}

func runList(args []string, env *environment) int {
	fs := newFlagSet("ls", "ls [PATH|URL] [--json] [--session-key-file F]", env.stderr)
	asJSON := fs.Bool("json", false, "print a JSON array: each conversation with its status, verdict, events, cost")
	keyFile := fs.String("session-key-file", "", "read the agent-server session key from `FILE` (else SESSION_API_KEY)")
	var themeF themeFlag
	fs.Var(&themeF, "theme", themeUsage)
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		if len(p) > 1 {
			return usageErr(fmt.Sprintf("unexpected argument %q (only one PATH or URL)", p[1]), "ohwatch ls [PATH|URL]")
		}
		return nil
	})
	if !ok {
		return code
	}
	where := ""
	if len(pos) == 1 {
		where = pos[0]
	}
	ctx, stop := interruptible()
	defer stop()
	var rows []listing
	if strings.HasPrefix(where, "http://") || strings.HasPrefix(where, "https://") {
		key, err := sessionKey(*keyFile, "", env.getenv, env.stderr)
		if err != nil {
			return reportUsage(env.stderr, "ls", usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY"))
		}
		secrets := new(model.Secrets)
		secrets.Add(key)
		var flush func()
		env, flush = env.withSecrets(secrets)
		defer flush()
		if env.isTerminal && !*asJSON {
			return listTable(ctx, env, where, *keyFile, themeF, secrets)
		}
		rows, err = listServer(ctx, where, key)
		if err != nil {
			fmt.Fprintf(env.stderr, "ohwatch ls: %v\n", err)
			return exitForError(err)
		}
	} else {
		if where == "" {
			where = files.DefaultRoot()
			if _, err := os.Stat(where); errors.Is(err, iofs.ErrNotExist) {
				// No local conversations yet is an answer, not a mistake.
				fmt.Fprintf(env.stderr, "ohwatch ls: no conversations: %s does not exist (set OPENHANDS_CONVERSATIONS_DIR, or pass a PATH or an agent-server URL)\n", where)
				if *asJSON {
					fmt.Fprintln(env.stdout, "[]")
				}
				return 0
			}
		}
		if _, err := os.Stat(where); err != nil && len(pos) == 1 {
			// A root the user named and mistyped is a mistake, unlike the
			// default root not existing yet.
			return reportUsage(env.stderr, "ls", missingPath(where, err, "give a conversations root, or an agent-server URL (http://HOST:PORT)"))
		}
		if env.isTerminal && !*asJSON {
			return listTable(ctx, env, where, "", themeF, new(model.Secrets))
		}
		var err error
		rows, err = listLocal(ctx, where, env.stderr)
		if err != nil {
			return loadFailed(ctx, env, "ls", err)
		}
	}
	if *asJSON {
		if rows == nil {
			rows = []listing{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return 1
		}
		return 0
	}
	writeListing(env.stdout, rows)
	return 0
}

// listTable is `ohwatch ls` in a terminal: the fleet table over its one
// source, live, where enter opens a conversation in the full monitor (a
// server's live, a local one read and followed) and esc comes back.
func listTable(ctx context.Context, env *environment, where, keyPath string, themeF themeFlag, secrets *model.Secrets) int {
	cfg := &fleetConfig{sources: []string{where}, interval: fleetsource.DefaultInterval, theme: themeF}
	if keyPath != "" {
		cfg.keys.entries = []keyFile{{path: keyPath}}
	}
	fl, err := cfg.build(env, secrets, slog.New(slog.DiscardHandler))
	if err != nil {
		return reportUsage(env.stderr, "ls", err)
	}
	return fl.run(ctx, env, cfg)
}

func listLocal(ctx context.Context, root string, stderr io.Writer) ([]listing, error) {
	list, err := files.ListContext(ctx, root)
	if err != nil {
		return nil, err
	}
	rows := make([]listing, 0, len(list))
	for _, s := range list {
		for _, w := range s.Warnings {
			fmt.Fprintf(stderr, "ohwatch ls: %s: %s\n", s.ID, model.SanitizeLine(w))
		}
		rows = append(rows, recordedVerdict(ctx, listing{ID: s.ID, Title: s.Title, Status: s.Status, Events: s.Events,
			CostUSD: s.CostUSD, CostKnown: s.CostKnown, LastActivity: s.LastActivity, Path: s.Path,
			ParentID: s.ParentID, ForkedFromEvent: s.ForkedFromEvent}))
	}
	return rows, nil
}

func listServer(ctx context.Context, url, key string) ([]listing, error) {
	c, err := agentserver.New(url, key)
	if err != nil {
		return nil, err
	}
	infos, err := c.SearchConversations(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([]listing, 0, len(infos))
	for _, info := range infos {
		row := listing{ID: info.ID, Title: info.Title, Status: info.ExecutionStatus, LastActivity: info.UpdatedAt, Events: -1,
			ParentID: info.ParentID(), ForkedFromEvent: info.ForkedFromEventID}
		row = serverVerdict(row)
		if n, err := c.CountEvents(ctx, info.ID); err == nil {
			row.Events = n
		}
		if info.Base != nil && info.Base.Stats != nil {
			row.CostUSD, row.CostKnown = statsCost(info.Base.Stats)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// statsCost is the combined cost of a server's stats; it is known only
// when some usage reported one, or usages exist and spent no tokens.
func statsCost(s *model.Stats) (float64, bool) {
	cost, tokens := s.Totals()
	return cost, cost > 0 || (tokens == 0 && len(s.UsageToMetrics) > 0)
}

func writeListing(w io.Writer, rows []listing) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no conversations")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tEVENTS\tCOST\tLAST ACTIVITY\tTITLE")
	for _, n := range underParents(rows) {
		r := rows[n.Index]
		events := fmt.Sprint(r.Events)
		if r.Events < 0 {
			events = "?"
		}
		cost := format.Cost(r.CostUSD, r.CostKnown || r.CostUSD > 0)
		last := "-"
		if !r.LastActivity.IsZero() {
			last = r.LastActivity.UTC().Format("2006-01-02 15:04")
		}
		title := truncateTitle(r.Title, 60)
		if n.Depth > 0 {
			title = strings.Repeat("  ", n.Depth-1) + "└ " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, orDashMain(r.Verdict), events, cost, last, title)
	}
	tw.Flush()
}

// underParents orders rows so that each fork or delegated conversation
// follows its parent (deeper by one), keeping the rows' order otherwise, as
// the fleet table does.
func underParents(rows []listing) []fleet.Placed {
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.ID] = i
	}
	return fleet.Nest(len(rows), func(i int) int {
		if p, ok := at[rows[i].ParentID]; ok && rows[i].ParentID != "" {
			return p
		}
		return -1
	})
}

func orDashMain(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func truncateTitle(s string, n int) string {
	s = model.SanitizeLine(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
