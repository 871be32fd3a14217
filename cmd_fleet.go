package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/headless"
	"ohwatch/model"
)

const fleetUsageLine = "fleet [ROOT|URL|cloud]… [--headless [--json] [--until all|any] [--watch-timeout D]] [--interval D] [--max-streams N] [--no-notify] [--session-key-file URL=FILE]…"

// fleetConfig is `ohwatch fleet` as parsed: where to watch and how.
type fleetConfig struct {
	// sources are the SOURCE arguments, or the defaults: a local root, an
	// agent-server URL, "cloud".
	sources  []string
	headless bool
	json     bool
	until    headless.Until
	interval time.Duration
	scale    fleetScale
	noNotify bool
	keys     keyFiles
	theme    themeFlag
	logFile  string
	otlp     otlpFlags
}

func runFleet(args []string, env *environment) int {
	cfg, code, ok := parseFleet(args, env)
	if !ok {
		return code
	}
	secrets := new(model.Secrets)
	env, flush := env.withSecrets(secrets)
	defer flush()
	logger, closeLog, err := (&viewFlags{logFile: cfg.logFile, secrets: secrets}).logger()
	if err != nil {
		fmt.Fprintf(env.stderr, "ohwatch fleet: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	fl, err := cfg.build(env, secrets, logger)
	if err != nil {
		return reportUsage(env.stderr, "fleet", err)
	}
	ctx, stop := interruptible()
	defer stop()
	return fl.run(ctx, env, cfg)
}

// parseFleet reads the command line of `ohwatch fleet`; on failure it has
// said what is wrong and returns the exit code.
func parseFleet(args []string, env *environment) (*fleetConfig, int, bool) {
	fs := newFlagSet("fleet", fleetUsageLine, env.stderr)
	cfg := &fleetConfig{}
	fs.BoolVar(&cfg.headless, "headless", false, "print a line per status change of any conversation instead of the table (automatic when stdout is not a terminal)")
	fs.BoolVar(&cfg.json, "json", false, "with --headless: print JSONL, one object per status change, then the result")
	until := fs.String("until", "", "with --headless, `all|any`: exit once every conversation ended (all) or one reached a terminal state (any), with the exit code of the worst outcome (error > stuck > none > finished); decided once every source has listed (or failed to), and with --otlp once every conversation's events are in")
	fs.DurationVar(&cfg.interval, "interval", fleetsource.DefaultInterval, "how often agent-servers and Cloud are asked for new conversations (backing off while they fail)")
	fs.BoolVar(&cfg.noNotify, "no-notify", false, "no bell and no desktop notification (OSC 9/777) when a conversation needs you")
	fs.Var(&cfg.keys, "session-key-file", "read an agent-server's session key from a file: `URL=FILE` for one server (repeat for several), FILE for every server without one (else SESSION_API_KEY)")
	fs.Var(&cfg.theme, "theme", themeUsage)
	fs.StringVar(&cfg.logFile, "log", "", "write diagnostics to `FILE` (the table never logs to the terminal)")
	cfg.otlp.bind(fs)
	cfg.scale.bind(fs)
	_, code, ok := checkCommand(fs, args, func(p []string) error {
		if err := cfg.scale.check(); err != nil {
			return err
		}
		u, err := headless.ParseUntil(*until)
		if err != nil {
			return usageErr(err.Error(), "--until all waits for every conversation, --until any for the first to end")
		}
		cfg.until = u
		if cfg.interval <= 0 {
			return usageErr(fmt.Sprintf("--interval must be more than 0, not %s", cfg.interval), "--interval 10s asks every ten seconds")
		}
		cfg.headless = cfg.headless || cfg.json || !env.isTerminal
		if cfg.until != headless.UntilNever && !cfg.headless {
			return usageErr("--until needs --headless", "ohwatch fleet --headless --until all")
		}
		cfg.sources = p
		if len(p) == 0 {
			cfg.sources = []string{files.DefaultRoot()}
			if env.getenv("OH_API_KEY") != "" {
				cfg.sources = append(cfg.sources, "cloud")
			}
			return nil
		}
		return checkFleetSources(p, env, &cfg.keys)
	})
	return cfg, code, ok
}

// checkFleetSources checks each SOURCE argument: "cloud" (which needs
// OH_API_KEY), an agent-server URL, or a conversations root that exists;
// none twice; every --session-key-file URL among the sources.
func checkFleetSources(pos []string, env *environment, keys *keyFiles) error {
	const hint = "a SOURCE is a conversations root, an agent-server URL (http://HOST:PORT) or cloud"
	seen := map[string]bool{}
	servers := map[string]bool{}
	for _, p := range pos {
		label := p
		switch {
		case p == "cloud":
			if strings.TrimSpace(env.getenv("OH_API_KEY")) == "" {
				return usageErr("cloud: no OpenHands Cloud API key", "set OH_API_KEY (your key from the Cloud settings)")
			}
		case strings.Contains(p, "://"):
			if err := checkServerURL(p); err != nil {
				return err
			}
			c, _ := agentserver.New(p, "")
			label = c.BaseURL()
			servers[label] = true
		default:
			fi, err := os.Stat(p)
			if err != nil {
				return missingPath(p, err, hint)
			}
			if !fi.IsDir() {
				return usageErr(p+" is not a directory", hint+"; 'ohwatch replay' shows one recording")
			}
		}
		if seen[label] {
			return usageErr(fmt.Sprintf("%s is given twice", p), hint)
		}
		seen[label] = true
	}
	for _, kf := range keys.entries {
		if kf.url != "" && !servers[kf.url] {
			return usageErr(fmt.Sprintf("--session-key-file %s=…: that server is not a SOURCE", kf.url), "name the server too: ohwatch fleet "+kf.url+" --session-key-file "+kf.url+"=FILE")
		}
	}
	return nil
}

// isURL reports whether a SOURCE is an agent-server URL.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// keyFiles is the repeatable --session-key-file: URL=FILE for one server,
// FILE for every server without its own.
type keyFiles struct {
	entries []keyFile
}

type keyFile struct {
	url  string // the server's base URL as the client spells it; "" for every server
	path string
}

func (k *keyFiles) String() string { return "" }

func (k *keyFiles) Set(s string) error {
	kf := keyFile{path: s}
	if u, path, ok := strings.Cut(s, "="); ok && isURL(u) {
		c, err := agentserver.New(u, "")
		if err != nil {
			return err
		}
		kf = keyFile{url: c.BaseURL(), path: path}
	}
	if kf.path == "" {
		return errors.New("want URL=FILE or FILE")
	}
	for _, e := range k.entries {
		if e.url == kf.url {
			return fmt.Errorf("a second key file for %s", orEvery(kf.url))
		}
	}
	k.entries = append(k.entries, kf)
	return nil
}

func orEvery(url string) string {
	if url == "" {
		return "every server"
	}
	return url
}

// keyFor is the session key of the server at base: its own file, else the
// file for every server, else SESSION_API_KEY.
func (k *keyFiles) keyFor(base string, env *environment) (string, error) {
	file := ""
	for _, e := range k.entries {
		if e.url == base || (e.url == "" && file == "") {
			file = e.path
		}
	}
	return sessionKey(file, "", env.getenv, env.stderr)
}

// builtFleet is the fleet's sources ready to run, and how to open each
// one's conversations.
type builtFleet struct {
	sources []fleetsource.Source
	openers map[model.ConversationRef]opener // by source (Ref without ID)
	// resumers open a paused conversation live after resuming its
	// sandbox, for the sources that can (Cloud), by source.
	resumers map[model.ConversationRef]opener
	where    []string
}

// build makes the sources of the fleet. Every key it reads joins secrets.
func (cfg *fleetConfig) build(env *environment, secrets *model.Secrets, logger *slog.Logger) (*builtFleet, error) {
	fl := &builtFleet{openers: map[model.ConversationRef]opener{}, resumers: map[model.ConversationRef]opener{}}
	add := fl.add
	for _, where := range cfg.sources {
		switch {
		case where == "cloud":
			ccfg, err := cloud.ConfigFromEnv(env.getenv)
			if err != nil {
				return nil, usageErr(err.Error(), "")
			}
			secrets.Add(ccfg.APIKey)
			ccfg.Logger = logger
			sess, err := cloud.New(ccfg)
			if err != nil {
				return nil, usageErr(err.Error(), "set OH_API_KEY, and OH_API_BASE to https://HOST when it is not the default")
			}
			src := fleetsource.Cloud(sess, fleetsource.CloudOptions{Interval: cfg.interval, Client: agentserver.WithLogger(logger)})
			add(src, cloudOpener(src, sess, secrets, logger))
			fl.resumers[sourceOf(src)] = cloudResumer(src, sess, secrets, logger)
		case isURL(where):
			probe, err := agentserver.New(where, "")
			if err != nil {
				return nil, usageErr(err.Error(), "")
			}
			key, err := cfg.keys.keyFor(probe.BaseURL(), env)
			if err != nil {
				return nil, usageErr(err.Error(), "--session-key-file URL=FILE names a file holding that server's key")
			}
			secrets.Add(key)
			c, err := agentserver.New(where, key, agentserver.WithLogger(logger))
			if err != nil {
				return nil, usageErr(err.Error(), "")
			}
			add(fleetsource.Server(c, fleetsource.ServerOptions{Interval: cfg.interval, MaxStreams: cfg.scale.maxStreams, MaxListed: cfg.scale.maxListed,
				// Traces need every conversation's events.
				StreamAll: cfg.otlp.on}), serverOpener(c))
		default:
			src := fleetsource.Local(where, fleetsource.LocalOptions{})
			add(src, localOpener(src))
		}
	}
	return fl, nil
}

// add puts a source in the fleet, with how to open its conversations.
func (fl *builtFleet) add(s fleetsource.Source, o opener) {
	fl.sources = append(fl.sources, s)
	fl.openers[sourceOf(s)] = o
	fl.where = append(fl.where, s.Label())
}

// sourceOf is the key of a source's openers: a Ref without an ID.
func sourceOf(s fleetsource.Source) model.ConversationRef {
	return model.ConversationRef{Source: s.Label(), Kind: s.Kind()}
}

// run watches the fleet headless or in the table.
func (fl *builtFleet) run(ctx context.Context, env *environment, cfg *fleetConfig) int {
	feed := fleetsource.Watch(ctx, fl.sources, fleetsource.Options{})
	if cfg.otlp.on {
		var finish func()
		var ok bool
		if feed, finish, ok = teeFleetOTLP(ctx, env, &cfg.otlp, feed); !ok {
			return exitUsage
		}
		defer finish()
	}
	if cfg.headless {
		// The lines are the conversations'; a source's own trouble (a
		// server not answering, a rejected key) goes to stderr.
		feed = reportingSources(ctx, feed, sourceReporter(env))
		return headless.RunFleet(ctx, feed, env.stdout, headless.FleetOptions{JSON: cfg.json, Until: cfg.until,
			// Traces need every conversation's events, not its listing.
			AwaitEvents: cfg.otlp.on, Sources: len(fl.sources),
			// stderr has said it; JSON lines carry it too, for a script.
			SourcesReported: !cfg.json, Timeout: cfg.scale.watchTimeout})
	}
	return fl.table(ctx, env, cfg, feed)
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
func sourceReporter(env *environment) func(model.FleetUpdate) {
	troubled := map[string]bool{}
	return func(u model.FleetUpdate) {
		for _, w := range u.Batch.Warnings {
			fmt.Fprintf(env.stderr, "ohwatch fleet: %s: %s\n", model.SanitizeLine(u.Ref.Source), model.SanitizeLine(w))
		}
		c := u.Batch.Conn
		switch {
		case c == nil:
		case c.Phase == model.PhaseLive && troubled[u.Ref.Source]:
			troubled[u.Ref.Source] = false
			fmt.Fprintf(env.stderr, "ohwatch fleet: %s: listing again\n", model.SanitizeLine(u.Ref.Source))
		case c.Phase == model.PhaseLost && c.Final:
			fmt.Fprintf(env.stderr, "ohwatch fleet: %s: %s (given up: asking again would change nothing)\n", model.SanitizeLine(u.Ref.Source), model.SanitizeLine(c.Reason))
		case c.Phase == model.PhaseReconnecting || c.Phase == model.PhaseLost:
			troubled[u.Ref.Source] = true
			fmt.Fprintf(env.stderr, "ohwatch fleet: %s: %s (retrying in %s)\n", model.SanitizeLine(u.Ref.Source), model.SanitizeLine(c.Reason), c.RetryIn)
		}
	}
}

// open opens one conversation of the fleet for the full monitor.
func (fl *builtFleet) open(ctx context.Context, ref model.ConversationRef) (session, error) {
	return openWith(ctx, fl.openers, ref)
}

// resume opens a paused conversation of the fleet live, resuming its
// sandbox first.
func (fl *builtFleet) resume(ctx context.Context, ref model.ConversationRef) (session, error) {
	return openWith(ctx, fl.resumers, ref)
}

// openWith opens ref with its source's opener of openers.
func openWith(ctx context.Context, openers map[model.ConversationRef]opener, ref model.ConversationRef) (session, error) {
	o, ok := openers[model.ConversationRef{Source: ref.Source, Kind: ref.Kind}]
	if !ok {
		return session{}, fmt.Errorf("no source %s", ref.Source)
	}
	return o(ctx, ref.ID)
}
