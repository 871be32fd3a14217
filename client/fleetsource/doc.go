// Package fleetsource watches many conversations at once, from any mix of
// places: a local conversations root (every conversation directory, new
// ones noticed, growing ones followed), an agent-server (every
// conversation it hosts, listed by polling its search; those that can
// change streamed live, the most urgent first, at most MaxStreams at
// once), and an OpenHands Cloud account (every conversation; a running one
// streamed from its sandbox's agent-server by the same rule, a paused one
// read from the events Cloud stored, without resuming it).
//
// Watch merges every source into one stream of []model.FleetUpdate, at
// most ten slices a second for the whole fleet (the first change after a
// quiet spell at once), never one send per event. A
// source keeps no events: what it reads goes to the consumer, which folds
// it; what a source remembers of a conversation is what it needs to resume
// (event ids for dedupe, the number of event files read).
//
// An update whose Ref has an empty ID is about the source itself: its
// listing's connection state (a server that cannot be reached is retried
// with backoff) and its warnings.
//
// # In detail
//
// Many conversations at once, as `[]model.FleetUpdate`, at most ten slices a
// second for the whole fleet (the first change after a quiet spell at once;
// `GCPercent`, the collector target the `fleet` command runs with): a local
// root (listed in one go, read a few at a time, new directories noticed,
// growing ones followed), an agent-server (search polled with backoff and
// handed on page by page, capped per listing, malformed items and ids that
// are not one path segment skipped with a counted warning; only what can
// change streamed live — running, waiting, of an unknown status or just
// changed, the most urgent first, at most `MaxStreams`, a stream keeping its
// place among conversations as urgent unless one's status just changed — the
// rest shown from the listing, `PhaseListed`, those waiting for a free
// stream too; streams gather their reads, `DefaultGatherReads`, and each
// poll decodes only the items that changed; forks and delegated
// conversations listed with their parent), a Cloud account (running ones
// watched on their sandbox by the same rule and cap, paused ones read from
// Cloud's stored events without resuming). Keeps no events, only what
// resuming needs.
//
// It imports `model`, `client/files`, `client/agentserver`, `client/cloud`.
package fleetsource
