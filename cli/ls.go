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
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/headless"
	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/session"
)

// listing is one object of `ls --json`: a fleet row (fleet.Row) in the
// JSON form ls has always printed.
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

// listed is one conversation of a one-shot listing: its fleet row, and
// where it is on disk ("" for a server's).
type listed struct {
	row  fleet.Row
	path string
}

// json is the conversation as `ls --json` prints it.
func (l listed) json() listing {
	r := l.row
	return listing{ID: r.Ref.ID, Title: r.Title, Status: sanitize.Line(r.Verdict.Status), Verdict: sanitize.Line(r.Verdict.String()),
		StatusFinal: r.Verdict.Final(), Events: r.Events, CostUSD: r.Cost, CostKnown: r.CostKnown, LastActivity: r.LastActivity,
		Path: l.path, ParentID: r.ParentID, ForkedFromEvent: r.ForkedFromEvent}
}

func newList(env *session.Env) *cobra.Command {
	var asJSON bool
	var keyFile string
	var themeF themeFlag
	var archived bool
	cmd := &cobra.Command{
		Use:   "ls [PATH|URL|cloud] [--json] [--session-key-file F]",
		Short: "list conversations of a local root, an agent-server or OpenHands Cloud",
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
			return exit(list(ctx, env, where, len(pos) == 1, asJSON, keyFile, themeF, archived))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array: each conversation with its status, verdict, events, cost")
	cmd.Flags().StringVar(&keyFile, "session-key-file", "", "read the agent-server session key from `FILE` (else SESSION_API_KEY)")
	cmd.Flags().Var(&themeF, "theme", themeUsage)
	cmd.Flags().BoolVar(&archived, "archived", false, "list an agent-server's archived conversations too (by default it lists the active ones, and stderr says how many are archived)")
	return cmd
}

// list lists the conversations of where (a root, an agent-server URL or
// "cloud"; named says the user gave it): in a terminal the fleet table over that
// one source, else the rows as text or JSON.
func list(ctx context.Context, env *session.Env, where string, named, asJSON bool, keyFile string, themeF themeFlag, archived bool) int {
	var rows []listed
	if where == "cloud" {
		secrets := new(redact.Secrets)
		secrets.Add(strings.TrimSpace(env.Getenv("OH_API_KEY")))
		var flush func()
		env, flush = env.WithSecrets(secrets)
		defer flush()
		if env.IsTerminal && !asJSON {
			return listTable(ctx, env, where, "", themeF, secrets, archived)
		}
		var err error
		if rows, err = listCloud(ctx, env, env.Stderr); err != nil {
			var ue cloudListError
			if errors.As(err, &ue) {
				fmt.Fprintf(env.Stderr, "ohwatch ls: %v\n", err)
				return headless.ExitUnreachable
			}
			return reportUsage(env.Stderr, "ls", err)
		}
	} else if session.IsURL(where) {
		key, err := session.Key(keyFile, "", env.Getenv, env.Stderr)
		if err != nil {
			return reportUsage(env.Stderr, "ls", usageErr(err.Error(), "--session-key-file names a file holding the key, or set SESSION_API_KEY"))
		}
		secrets := new(redact.Secrets)
		secrets.Add(key)
		var flush func()
		env, flush = env.WithSecrets(secrets)
		defer flush()
		if env.IsTerminal && !asJSON {
			return listTable(ctx, env, where, keyFile, themeF, secrets, archived)
		}
		var l agentserver.Listing
		rows, l, err = listServer(ctx, where, key, archived)
		if err != nil {
			fmt.Fprintf(env.Stderr, "ohwatch ls: %v\n", err)
			return exitForError(err)
		}
		if n := archivedNote(l); n != "" {
			fmt.Fprintf(env.Stderr, "ohwatch ls: %s\n", n)
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
		// The titles of recordings are what their agents were told: one
		// may hold a key the environment has (session.EnvSecrets).
		secrets := session.EnvSecrets(env.Getenv)
		var flush func()
		env, flush = env.WithSecrets(secrets)
		defer flush()
		one := files.IsConversationDir(where)
		if env.IsTerminal && !asJSON && !one {
			return listTable(ctx, env, where, "", themeF, secrets, false)
		}
		var err error
		if one {
			rows = listOne(ctx, where, env.Stderr)
		} else {
			rows, err = listLocal(ctx, where, env.Stderr)
		}
		if err != nil {
			return session.LoadFailed(ctx, env, "ls", err)
		}
	}
	if asJSON {
		docs := make([]listing, len(rows))
		for i, l := range rows {
			docs[i] = l.json()
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(docs); err != nil {
			return 1
		}
		return 0
	}
	writeListing(env.Stdout, rows, time.Now())
	return 0
}

// listTable is `ohwatch ls` in a terminal: the fleet table over its one
// source, live, where enter opens a conversation in the full monitor (a
// server's live, a local one read and followed) and esc comes back.
func listTable(ctx context.Context, env *session.Env, where, keyPath string, themeF themeFlag, secrets *redact.Secrets, archived bool) int {
	mode, err := themeF.resolve(env.Getenv, env.Config)
	if err != nil {
		return reportUsage(env.Stderr, "ls", usageErr(err.Error(), ""))
	}
	o := session.FleetOptions{Interval: fleetsource.DefaultInterval, Notify: env.Config.Notify(), Theme: mode, Archived: archived}
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

// listLocal lists the conversations of a local root, each with the
// verdict every other surface gives it.
func listLocal(ctx context.Context, root string, stderr io.Writer) ([]listed, error) {
	list, err := files.ListContext(ctx, root)
	if err != nil {
		return nil, err
	}
	rows := make([]listed, 0, len(list))
	for _, s := range list {
		rows = append(rows, localRow(ctx, root, s, stderr))
	}
	return rows, nil
}

// listOne lists the one conversation a directory holds: `ls DIR` on a
// conversation, not a root of them, shows that conversation. In a
// terminal it is listed as text too, the table being for a root.
func listOne(ctx context.Context, dir string, stderr io.Writer) []listed {
	return []listed{localRow(ctx, filepath.Dir(dir), files.Summarise(dir), stderr)}
}

// localRow is the listing of one local conversation of root, with the
// verdict every other surface gives it; its warnings go to stderr.
func localRow(ctx context.Context, root string, s files.Summary, stderr io.Writer) listed {
	for _, w := range s.Warnings {
		fmt.Fprintf(stderr, "ohwatch ls: %s: %s\n", s.ID, sanitize.Line(w))
	}
	r := fleet.Row{Ref: model.ConversationRef{Source: root, Kind: model.SourceLocal, ID: s.ID}, Title: sanitize.Line(s.Title),
		Events: s.Events, Cost: s.CostUSD, CostKnown: s.CostKnown, MetricsReported: s.CostKnown, LastActivity: s.LastActivity,
		ParentID: sanitize.Line(s.ParentID), ForkedFromEvent: sanitize.Line(s.ForkedFromEvent)}
	return listed{row: recordedVerdict(ctx, r, s.Status, s.Path), path: s.Path}
}

// countWorkers bounds the event counts asked of a server at once.
const countWorkers = 8

// listServer lists the conversations of an agent-server with their REST
// status; their event counts are asked for side by side.
func listServer(ctx context.Context, url, key string, archived bool) ([]listed, agentserver.Listing, error) {
	c, err := agentserver.New(url, key)
	if err != nil {
		return nil, agentserver.Listing{}, err
	}
	infos, l, err := c.SearchConversationsWith(ctx, agentserver.ListOptions{Archived: archived})
	if err != nil {
		return nil, l, err
	}
	rows := make([]listed, len(infos))
	for i, info := range infos {
		r := fleet.Row{Ref: model.ConversationRef{Source: c.BaseURL(), Kind: model.SourceServer, ID: info.ID}, Title: sanitize.Line(info.Title),
			LastActivity: info.UpdatedAt, Events: -1, ParentID: sanitize.Line(info.ParentID()), ForkedFromEvent: sanitize.Line(info.ForkedFromEventID),
			Verdict: serverVerdict(info.ExecutionStatus)}
		if info.Base != nil && info.Base.Stats != nil {
			r.Cost, r.CostKnown = statsCost(info.Base.Stats)
			r.MetricsReported = r.CostKnown
		}
		rows[i] = listed{row: r}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(countWorkers, len(rows)) {
		wg.Go(func() {
			for i := range next {
				if n, err := c.CountEvents(ctx, rows[i].row.Ref.ID); err == nil {
					rows[i].row.Events = n
				}
			}
		})
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	return rows, l, nil
}

// statsCost is the combined cost of a server's stats; it is known only
// when some usage reported one, or usages exist and spent no tokens.
func statsCost(s *model.Stats) (float64, bool) {
	cost, tokens := s.Totals()
	return cost, cost > 0 || (tokens == 0 && len(s.UsageToMetrics) > 0)
}

// writeListing prints the rows as text, the fleet table's cells (its
// columns' words at now) with the id, the whole verdict and the events,
// each fork or delegated conversation under its parent.
func writeListing(w io.Writer, rows []listed, now time.Time) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no conversations")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tSTATUS\tEVENTS\t%s\t%s\t%s\n", fleet.ColCost.Name(), fleet.ColActivity.Name(), fleet.ColTitle.Name())
	for _, n := range underParents(rows) {
		r := rows[n.Index].row
		events := format.Count(int64(r.Events))
		if r.Events < 0 {
			events = format.Unknown
		}
		status := sanitize.Line(r.Verdict.String()) // "unknown" when not known
		title := fleet.ColTitle.Text(r, now)
		if n.Depth > 0 {
			title = strings.Repeat("  ", n.Depth-1) + "└ " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", sanitize.Line(r.Ref.ID), status, events, fleet.ColCost.Text(r, now), fleet.ColActivity.Text(r, now), title)
	}
	tw.Flush()
}

// underParents orders rows so that each fork or delegated conversation
// follows its parent (deeper by one), keeping the rows' order otherwise, as
// the fleet table does.
func underParents(rows []listed) []fleet.Placed {
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.row.Ref.ID] = i
	}
	return fleet.Nest(len(rows), func(i int) int {
		if p, ok := at[rows[i].row.ParentID]; ok && rows[i].row.ParentID != "" {
			return p
		}
		return -1
	})
}
