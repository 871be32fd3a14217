// Package demo is the conversation bundled in the binary: a scripted,
// deterministic run in which an agent fixes a real-sounding bug in a small
// Go repository (an LRU cache that evicts its hottest keys), then makes it
// safe for concurrent use and pushes the branch after the user approves a
// risky force push (a user who rejects it sees the agent stop without
// pushing: Rejected). It is the first thing a user of `ohwatch demo` sees,
// so it shows every pane at work: a task plan that progresses, tests that
// fail and then pass, diffs, a recovered tool error, a confirmation, a
// condensation, cost and tokens after every LLM call, and a finish.
//
// The events are built with gen.Builder, the same code that generates
// conversations at scale, so they have upstream's exact JSON shape.
//
// # In detail
//
// The bundled demo conversation, written with gen's one event builder.
//
// It imports `gen`, `model`.
package demo
