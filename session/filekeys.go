package session

import (
	"context"
	"io"
	"strings"

	"ohwatch/internal/redact"
	"ohwatch/model"
)

// A conversation an agent ran may hold the very keys it was run with: an
// agent that printed its environment echoed SESSION_API_KEY into an
// observation, and the SDK wrote it to disk as it came. Events a client
// reads from a server have the keys the client holds cut out of them;
// events read from files had no client in between. So the commands that
// read recordings (replay, state, export) take the keys this environment
// holds as the secrets to keep off the screen, their output, and what
// they record; so do a fleet, for its local roots, and compare, for the
// runs it reads from files.

// EnvSecrets is the keys set in the environment: the agent-server's
// SESSION_API_KEY and the Cloud's OH_API_KEY.
func EnvSecrets(getenv func(string) string) *redact.Secrets {
	s := new(redact.Secrets)
	AddEnvSecrets(s, getenv)
	return s
}

// AddEnvSecrets adds the keys set in the environment to s.
func AddEnvSecrets(s *redact.Secrets, getenv func(string) string) {
	for _, name := range []string{"SESSION_API_KEY", "OH_API_KEY"} {
		s.Add(strings.TrimSpace(getenv(name)))
	}
}

// redactedLocalUpdates forwards a fleet's updates with the secrets cut out
// of what its local roots sent: their events and warnings (redactBatch)
// and their listed titles. Servers' updates pass as they are: their
// clients cut their keys out already. With no secret it is in itself.
func redactedLocalUpdates(ctx context.Context, secrets *redact.Secrets, in <-chan []model.FleetUpdate) <-chan []model.FleetUpdate {
	if !secrets.Any() {
		return in
	}
	out := make(chan []model.FleetUpdate, cap(in))
	go func() {
		defer close(out)
		for ups := range in {
			for i := range ups {
				u := &ups[i]
				if u.Ref.Kind != model.SourceLocal {
					continue
				}
				redactBatch(secrets, &u.Batch)
				if u.Meta != nil {
					meta := *u.Meta
					meta.Title = secrets.Redact(meta.Title)
					u.Meta = &meta
				}
			}
			select {
			case out <- ups:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// RedactingWriter is w with the secrets cut out of every line written to
// it (an export to a file); call flush before closing w.
func RedactingWriter(w io.Writer, secrets *redact.Secrets) (out io.Writer, flush func() error) {
	r := &redactingWriter{w: w, secrets: secrets}
	return r, r.Flush
}

// redactedFeed forwards the batches of feed with the secrets cut out of
// each event's raw bytes, the event decoded again from what is left when
// that changed it, and out of the warnings. It closes its output when feed
// closes or ctx ends. With no secret it is feed itself.
func redactedFeed(ctx context.Context, secrets *redact.Secrets, feed <-chan model.Batch) <-chan model.Batch {
	if !secrets.Any() {
		return feed
	}
	out := make(chan model.Batch, cap(feed))
	go func() {
		defer close(out)
		for b := range feed {
			redactBatch(secrets, &b)
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// redactBatch cuts the secrets out of a batch read from files, in place
// but for the events, which are replaced: a batch's slice may be shared.
func redactBatch(secrets *redact.Secrets, b *model.Batch) {
	var events []model.Event
	for i, ev := range b.Events {
		raw := secrets.RedactJSON(ev.Raw)
		if len(raw) == len(ev.Raw) && (len(raw) == 0 || &raw[0] == &ev.Raw[0]) {
			continue
		}
		clean, err := model.Decode(raw)
		if err != nil {
			// Bytes a key was cut out of that no longer read as an event
			// (the cut keeps JSON whole, so only in theory): kept as unknown,
			// with nothing of the original but its header, redacted too.
			clean = model.Event{ID: secrets.Redact(ev.ID), Kind: secrets.Redact(ev.Kind), Source: secrets.Redact(ev.Source),
				ParentID: secrets.Redact(ev.ParentID), Time: ev.Time, Raw: raw,
				Body: &model.Unknown{Reason: "unreadable once a key was cut out of it"}}
		}
		if events == nil {
			events = append([]model.Event(nil), b.Events...)
		}
		events[i] = clean
	}
	if events != nil {
		b.Events = events
	}
	var warnings []string
	for i, w := range b.Warnings {
		r := secrets.Redact(w)
		if r != w && warnings == nil {
			warnings = append([]string(nil), b.Warnings...)
		}
		if warnings != nil {
			warnings[i] = r
		}
	}
	if warnings != nil {
		b.Warnings = warnings
	}
}
