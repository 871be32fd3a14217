package cli

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

	"github.com/spf13/cobra"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/session"
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

func newList(env *session.Env) *cobra.Command {
	var asJSON bool
	var keyFile string
	var themeF themeFlag
	cmd := &cobra.Command{
		Use:   "ls [PATH|URL] [--json] [--session-key-file F]",
		Short: "list conversations of a local root or of an agent-server",
		RunE: func(cmd *cobra.Command, pos []string) error {
			if len(pos) > 1 {
				return usageErr(fmt.Sprintf("unexpected argument %q (only one PATH or URL)", pos[1]), "ohwatch ls [PATH|URL]")
			}
			where := ""
			if len(pos) == 1 {
				where = pos[0]
			}
			ctx, stop := session.Interruptible()
			defer stop()
			return exit(list(ctx, env, where, len(pos) == 1, asJSON, keyFile, themeF))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array: each conversation with its status, verdict, events, cost")
	cmd.Flags().StringVar(&keyFile, "session-key-file", "", "read the agent-server session key from `FILE` (else SESSION_API_KEY)")
	cmd.Flags().Var(&themeF, "theme", themeUsage)
	return cmd
}

// list lists the conversations of where (a root, or an agent-server URL;
// named says the user gave it): in a terminal the fleet table over that
// one source, else the rows as text or JSON.
func list(ctx context.Context, env *session.Env, where string, named, asJSON bool, keyFile string, themeF themeFlag) int {
	var rows []listing
	if session.IsURL(where) {
		key, err := session.Key(keyFile, "", env.Getenv, env.Stderr)
		if err != nil {
			return reportUsage(env.Stderr, "ls", usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY"))
		}
		secrets := new(model.Secrets)
		secrets.Add(key)
		var flush func()
		env, flush = env.WithSecrets(secrets)
		defer flush()
		if env.IsTerminal && !asJSON {
			return listTable(ctx, env, where, keyFile, themeF, secrets)
		}
		rows, err = listServer(ctx, where, key)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch ls: %v\n", err)
			return exitForError(err)
		}
	} else {
		if where == "" {
			where = files.DefaultRoot()
			if _, err := os.Stat(where); errors.Is(err, iofs.ErrNotExist) {
				// No local conversations yet is an answer, not a mistake.
				fmt.Fprintf(env.Stderr, "ohwatch ls: no conversations: %s does not exist (set OPENHANDS_CONVERSATIONS_DIR, or pass a PATH or an agent-server URL)\n", where)
				if asJSON {
					fmt.Fprintln(env.Stdout, "[]")
				}
				return 0
			}
		}
		if _, err := os.Stat(where); err != nil && named {
			// A root the user named and mistyped is a mistake, unlike the
			// default root not existing yet.
			return reportUsage(env.Stderr, "ls", missingPath(where, err, "give a conversations root, or an agent-server URL (http://HOST:PORT)"))
		}
		if env.IsTerminal && !asJSON {
			return listTable(ctx, env, where, "", themeF, new(model.Secrets))
		}
		var err error
		rows, err = listLocal(ctx, where, env.Stderr)
		if err != nil {
			return session.LoadFailed(ctx, env, "ls", err)
		}
	}
	if asJSON {
		if rows == nil {
			rows = []listing{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return 1
		}
		return 0
	}
	writeListing(env.Stdout, rows)
	return 0
}

// listTable is `ohwatch ls` in a terminal: the fleet table over its one
// source, live, where enter opens a conversation in the full monitor (a
// server's live, a local one read and followed) and esc comes back.
func listTable(ctx context.Context, env *session.Env, where, keyPath string, themeF themeFlag, secrets *model.Secrets) int {
	mode, err := themeF.resolve(env.Getenv)
	if err != nil {
		return reportUsage(env.Stderr, "ls", usageErr(err.Error(), ""))
	}
	o := session.FleetOptions{Interval: fleetsource.DefaultInterval, Notify: true, Theme: mode}
	if keyPath != "" {
		o.KeyFiles = map[string]string{"": keyPath}
	}
	fl, err := session.BuildFleet(env, []string{where}, o, secrets, slog.New(slog.DiscardHandler))
	if err != nil {
		return reportUsage(env.Stderr, "ls", err)
	}
	return fl.Run(ctx, env, o)
}

// exitForError maps a client error to an exit code: auth, not found and
// unreachable are 4.
func exitForError(err error) int {
	if errors.Is(err, agentserver.ErrAuth) || errors.Is(err, agentserver.ErrNotFound) || errors.Is(err, agentserver.ErrConnect) {
		return headless.ExitUnreachable
	}
	return 1
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
