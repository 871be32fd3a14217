package session

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/client/fleetsource"
	"ohwatch/guard"
	"ohwatch/headless"
	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	convui "ohwatch/tui/conversation"
)

// FleetOptions say how a fleet is watched: the parsed command line of
// `fleet`, and what `ls` and `demo --fleet` ask of it.
type FleetOptions struct {
	// Headless prints a line per status change instead of the table.
	Headless bool
	JSON     bool
	// Until ends a headless watch once every conversation ended (all) or
	// one did (any).
	Until headless.Until
	// Interval is how often agent-servers and Cloud are asked for new
	// conversations.
	Interval time.Duration
	Notify   bool
	Theme    theme.Mode
	OTLP     OTLP
	// KeyFiles name the file holding each agent-server's session key, by
	// its base URL (as agentserver.Client.BaseURL spells it); the "" entry
	// is for every server without its own. Else SESSION_API_KEY.
	KeyFiles map[string]string
	// Guards judge every conversation on its own; a tripped pause or
	// interrupt guard stops an agent-server's or a Cloud conversation, and
	// the watch goes on.
	Guards []guard.Rule
	// MaxStreams is the most conversations of one server (or of Cloud)
	// streamed live at once; MaxListed caps the conversations one listing
	// takes (the sources' defaults when 0).
	MaxStreams int
	MaxListed  int
	// Archived lists the agent-servers' archived conversations too.
	Archived bool
	// WatchTimeout bounds a headless watch (0: none).
	WatchTimeout time.Duration
}

// Fleet is a fleet's sources ready to run, and how to open each one's
// conversations.
type Fleet struct {
	sources []fleetsource.Source
	openers map[model.ConversationRef]opener // by source (Ref without ID)
	// resumers open a paused conversation live after resuming its
	// sandbox, for the sources that can (Cloud), by source.
	resumers map[model.ConversationRef]opener
	// steers give the table the controls of a conversation of the
	// sources whose controls are not an agent-server's own (Cloud), by
	// source.
	steers map[model.ConversationRef]func(id string) convui.Steering
	where  []string
	// fileSecrets are the keys set in the environment, cut out of what
	// local roots hold (filekeys.go).
	fileSecrets *redact.Secrets
}

// NewFleet returns a fleet without sources.
func NewFleet() *Fleet {
	return &Fleet{openers: map[model.ConversationRef]opener{}, resumers: map[model.ConversationRef]opener{},
		steers: map[model.ConversationRef]func(string) convui.Steering{}}
}

// BuildFleet makes the sources of a fleet: each of where is "cloud", an
// agent-server URL or a conversations root. Every key it reads joins
// secrets. Its errors are usage errors.
func BuildFleet(env *Env, where []string, o FleetOptions, secrets *redact.Secrets, logger *slog.Logger) (*Fleet, error) {
	fl := NewFleet()
	fl.fileSecrets = EnvSecrets(env.Getenv)
	for _, w := range where {
		switch {
		case w == "cloud":
			ccfg, err := cloud.ConfigFromEnv(env.Getenv)
			if err != nil {
				return nil, Usage(err.Error(), "")
			}
			secrets.Add(ccfg.APIKey)
			ccfg.Logger = logger
			sess, err := cloud.New(ccfg)
			if err != nil {
				return nil, Usage(err.Error(), "set OH_API_KEY, and OH_API_BASE to https://HOST when it is not the default")
			}
			src := fleetsource.Cloud(sess, fleetsource.CloudOptions{Interval: o.Interval, Client: agentserver.WithLogger(logger),
				MaxStreams: o.MaxStreams, StreamAll: o.OTLP.On})
			fl.add(src, cloudOpener(src, sess, secrets, logger))
			fl.resumers[sourceOf(src)] = cloudResumer(src, sess, secrets, logger)
			fl.steers[sourceOf(src)] = cloudSteer(src, sess, secrets, logger)
		case IsURL(w):
			probe, err := agentserver.New(w, "")
			if err != nil {
				return nil, Usage(err.Error(), "")
			}
			key, err := keyFor(o.KeyFiles, probe.BaseURL(), env)
			if err != nil {
				return nil, Usage(err.Error(), "--session-key-file URL=FILE names a file holding that server's key")
			}
			secrets.Add(key)
			c, err := agentserver.New(w, key, agentserver.WithLogger(logger))
			if err != nil {
				return nil, Usage(err.Error(), "")
			}
			fl.AddServer(c, fleetsource.ServerOptions{Interval: o.Interval, MaxStreams: o.MaxStreams, MaxListed: o.MaxListed,
				// Traces need every conversation's events.
				StreamAll: o.OTLP.On, Archived: o.Archived})
		default:
			// What an agent echoed into its recordings is no more shown
			// than what a server echoes: the environment's keys join the
			// secrets of stdout and --log too.
			AddEnvSecrets(secrets, env.Getenv)
			src := fleetsource.Local(w, fleetsource.LocalOptions{})
			fl.add(src, localOpener(src, fl.fileSecrets))
		}
	}
	return fl, nil
}

// IsURL reports whether a SOURCE is an agent-server URL.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// keyFor is the session key of the server at base: its own file, else the
// file for every server, else SESSION_API_KEY.
func keyFor(files map[string]string, base string, env *Env) (string, error) {
	file, ok := files[base]
	if !ok {
		file = files[""]
	}
	return Key(file, "", env.Getenv, env.Stderr)
}

// AddServer puts the agent-server c talks to in the fleet, listed and
// streamed as opts say.
func (fl *Fleet) AddServer(c *agentserver.Client, opts fleetsource.ServerOptions) {
	fl.add(fleetsource.Server(c, opts), serverOpener(c))
}

// add puts a source in the fleet, with how to open its conversations.
func (fl *Fleet) add(s fleetsource.Source, o opener) {
	fl.sources = append(fl.sources, s)
	fl.openers[sourceOf(s)] = o
	fl.where = append(fl.where, s.Label())
}

// hasLocal reports whether a local root is among the fleet's sources.
func (fl *Fleet) hasLocal() bool {
	for _, s := range fl.sources {
		if s.Kind() == model.SourceLocal {
			return true
		}
	}
	return false
}

// sourceOf is the key of a source's openers: a Ref without an ID.
func sourceOf(s fleetsource.Source) model.ConversationRef {
	return model.ConversationRef{Source: s.Label(), Kind: s.Kind()}
}

// Run watches the fleet headless or in the table, and returns the exit
// code.
func (fl *Fleet) Run(ctx context.Context, env *Env, o FleetOptions) int {
	feed := fl.watch(ctx)
	if o.OTLP.On {
		var finish func()
		var ok bool
		if feed, finish, ok = teeFleetOTLP(ctx, env, o.OTLP, feed); !ok {
			return headless.ExitUsage
		}
		defer finish()
	}
	if o.Headless {
		// The lines are the conversations'; a source's own trouble (a
		// server not answering, a rejected key) goes to stderr.
		feed = reportingSources(ctx, feed, sourceReporter(env))
		return headless.RunFleet(ctx, feed, env.Stdout, headless.FleetOptions{JSON: o.JSON, Until: o.Until,
			// Traces need every conversation's events, not its listing.
			AwaitEvents: o.OTLP.On, Sources: len(fl.sources),
			// stderr has said it; JSON lines carry it too, for a script.
			SourcesReported: !o.JSON, Timeout: o.WatchTimeout,
			Guards: o.Guards, Act: fl.guardAct(o, env)})
	}
	return fl.table(ctx, env, o, feed)
}

// watch is the fleet's sources watched, what local roots hold redacted.
func (fl *Fleet) watch(ctx context.Context) <-chan []model.FleetUpdate {
	feed := fleetsource.Watch(ctx, fl.sources, fleetsource.Options{})
	if fl.hasLocal() {
		feed = redactedLocalUpdates(ctx, fl.fileSecrets, feed)
	}
	return feed
}

// reportingSources reports the updates about the sources themselves and
// hands every update on: the watch folds a source's state (to know that
// its listing is in) without printing it.
func reportingSources(ctx context.Context, feed <-chan []model.FleetUpdate, report func(model.FleetUpdate)) <-chan []model.FleetUpdate {
	out := make(chan []model.FleetUpdate)
	go func() {
		defer close(out)
		for ups := range feed {
			for i := range ups {
				if ups[i].Ref.ID == "" {
					report(ups[i])
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

// sourceReporter says on stderr when a source's listing fails, is retried,
// or works again after failing.
func sourceReporter(env *Env) func(model.FleetUpdate) {
	troubled := map[string]bool{}
	return func(u model.FleetUpdate) {
		for _, w := range u.Batch.Warnings {
			fmt.Fprintf(env.Stderr, "ohwatch fleet: %s: %s\n", sanitize.Line(u.Ref.Source), sanitize.Line(w))
		}
		c := u.Batch.Conn
		switch {
		case c == nil:
		case c.Phase == model.PhaseLive && troubled[u.Ref.Source]:
			troubled[u.Ref.Source] = false
			fmt.Fprintf(env.Stderr, "ohwatch fleet: %s: listing again\n", sanitize.Line(u.Ref.Source))
		case c.Phase == model.PhaseLost && c.Final:
			fmt.Fprintf(env.Stderr, "ohwatch fleet: %s: %s (given up: asking again would change nothing)\n", sanitize.Line(u.Ref.Source), sanitize.Line(c.Reason))
		case (c.Phase == model.PhaseReconnecting || c.Phase == model.PhaseLost) && c.RetryIn == 0:
			// A source that looks again on its own clock (a local root
			// that does not exist yet) has no retry to count down.
			troubled[u.Ref.Source] = true
			fmt.Fprintf(env.Stderr, "ohwatch fleet: %s: %s\n", sanitize.Line(u.Ref.Source), sanitize.Line(c.Reason))
		case c.Phase == model.PhaseReconnecting || c.Phase == model.PhaseLost:
			troubled[u.Ref.Source] = true
			fmt.Fprintf(env.Stderr, "ohwatch fleet: %s: %s (retrying in %s)\n", sanitize.Line(u.Ref.Source), sanitize.Line(c.Reason), c.RetryIn)
		}
	}
}

// open opens one conversation of the fleet for the full monitor.
func (fl *Fleet) open(ctx context.Context, ref model.ConversationRef) (conversation, error) {
	return openWith(ctx, fl.openers, ref)
}

// resume opens a paused conversation of the fleet live, resuming its
// sandbox first.
func (fl *Fleet) resume(ctx context.Context, ref model.ConversationRef) (conversation, error) {
	return openWith(ctx, fl.resumers, ref)
}

// openWith opens ref with its source's opener of openers.
func openWith(ctx context.Context, openers map[model.ConversationRef]opener, ref model.ConversationRef) (conversation, error) {
	o, ok := openers[model.ConversationRef{Source: ref.Source, Kind: ref.Kind}]
	if !ok {
		return conversation{}, fmt.Errorf("no source %s", ref.Source)
	}
	return o(ctx, ref.ID)
}
