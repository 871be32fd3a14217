package main

import (
	"fmt"

	"ohwatch/format"
	"ohwatch/tui"
)

// browseAndReplay is `ohwatch ls` on a terminal: the conversations in a
// browser to pick one from. A conversation on disk is then replayed in the
// TUI; one on a server has no path to replay, so its id is printed for
// `ohwatch watch URL --conversation ID`. Leaving the browser without a
// choice exits 0.
func browseAndReplay(env *environment, rows []listing, themeF themeFlag) int {
	mode, err := themeF.resolve(env.getenv)
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch ls: %v\n", err)
		return exitUsage
	}
	ctx, stop := interruptible()
	defer stop()
	chosen, err := tui.Browse(ctx, tui.BrowseOptions{Rows: browseRowsOf(rows), NoColor: env.getenv("NO_COLOR") != "", Theme: mode})
	if ctx.Err() != nil || err != nil {
		return tuiExit(ctx, ctx, err, env.stderr)
	}
	if chosen == "" {
		return 0
	}
	for _, r := range rows {
		if r.Path != "" && r.Path == chosen {
			stop()
			return runReplay([]string{chosen, "--theme", mode.String()}, env)
		}
	}
	fmt.Fprintln(env.stdout, chosen)
	return 0
}

// browseRowsOf turns the listing into the browser's rows, with costs
// printed as the table of `ohwatch ls` prints them.
func browseRowsOf(rows []listing) []tui.BrowseRow {
	out := make([]tui.BrowseRow, len(rows))
	for i, r := range rows {
		out[i] = tui.BrowseRow{ID: r.ID, Title: r.Title, Status: r.Status, Verdict: r.Verdict, Events: r.Events,
			Cost: listingCost(r), LastActivity: r.LastActivity, Path: r.Path}
	}
	return out
}

// listingCost is a row's cost as `ohwatch ls` prints it: dollars when
// known, else "unknown" — never a false $0.
func listingCost(r listing) string {
	return format.Cost(r.CostUSD, r.CostKnown || r.CostUSD > 0)
}
