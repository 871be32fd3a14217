package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/headless"
	"ohwatch/internal/redact"
	"ohwatch/session"
)

const fleetUsageLine = "fleet [ROOT|URL|cloud]… [--headless [--json] [--until all|any] [--watch-timeout D]] [--interval D] [--max-streams N] [--no-notify] [--session-key-file URL=FILE]…"

// fleetFlags are the flags of `ohwatch fleet`.
type fleetFlags struct {
	headless bool
	json     bool
	until    string
	interval time.Duration
	scale    fleetScale
	noNotify bool
	keys     keyFiles
	theme    themeFlag
	logFile  string
	otlp     otlpFlags
	guards   guardFlag
	archived bool
}

// collectAsAFleet sets the garbage collector's target a fleet runs with
// (fleetsource.GCPercent), unless GOGC chose one, and returns what puts
// the previous target back.
func collectAsAFleet(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(fleetsource.GCPercent)
	return func() { debug.SetGCPercent(prev) }
}

func newFleet(env *session.Env) *cobra.Command {
	var ff fleetFlags
	cmd := &cobra.Command{
		Use:   fleetUsageLine,
		Short: "watch every conversation at once: local roots, agent-servers, cloud",
		RunE: func(cmd *cobra.Command, p []string) error {
			sources, o, err := ff.options(env, p)
			if err != nil {
				return err
			}
			defer collectAsAFleet(env.Getenv)()
			secrets := new(redact.Secrets)
			env, flush := env.WithSecrets(secrets)
			defer flush()
			logger, closeLog, err := session.OpenLog(ff.logFile, secrets)
			if err != nil {
				fmt.Fprintf(env.Stderr, "ohwatch fleet: %v\n", err)
				return exitCode(exitUsage)
			}
			defer closeLog()
			fl, err := session.BuildFleet(env, sources, o, secrets, logger)
			if err != nil {
				// Said through env: what a source answered may echo a key.
				return exit(reportUsage(env.Stderr, "fleet", err))
			}
			ctx, stop := session.Interruptible()
			defer stop()
			return exit(fl.Run(ctx, env, o))
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&ff.headless, "headless", false, "print a line per status change of any conversation instead of the table (automatic when stdout is not a terminal)")
	fs.BoolVar(&ff.json, "json", false, "with --headless: print JSONL, one object per status change, then the result")
	fs.StringVar(&ff.until, "until", "", "with --headless, `all|any`: exit once every conversation ended (all) or one reached a terminal state (any), with the exit code of the worst outcome (error > stuck > none > finished); decided once every source has listed (or failed to), and with --otlp once every conversation's events are in")
	fs.DurationVar(&ff.interval, "interval", fleetsource.DefaultInterval, "how often agent-servers and Cloud are asked for new conversations (backing off while they fail)")
	fs.BoolVar(&ff.noNotify, "no-notify", false, "no bell and no desktop notification (OSC 9/777) when a conversation needs you")
	fs.Var(&ff.keys, "session-key-file", "read an agent-server's session key from a file: `URL=FILE` for one server (repeat for several), FILE for every server without one (else SESSION_API_KEY)")
	fs.Var(&ff.theme, "theme", themeUsage)
	fs.StringVar(&ff.logFile, "log", "", "write diagnostics to `FILE` (the table never logs to the terminal)")
	ff.otlp.bind(fs)
	fs.Var(&ff.guards, "guard", guardUsage+"; in a fleet, each conversation on its own, and the watch goes on")
	fs.BoolVar(&ff.guards.none, "no-guards", false, noGuardsUsage)
	ff.scale.bind(fs)
	fs.BoolVar(&ff.archived, "archived", false, "list an agent-server's archived conversations too (by default it lists the active ones, and stderr says how many are archived)")
	return cmd
}

// options checks the command line of `ohwatch fleet` and returns its
// sources (the SOURCE arguments, or the defaults: the local root, and
// Cloud when OH_API_KEY is set) and the fleet's options.
func (ff *fleetFlags) options(env *session.Env, p []string) ([]string, session.FleetOptions, error) {
	o := session.FleetOptions{JSON: ff.json, Interval: ff.interval, Notify: !ff.noNotify && env.Config.Notify(), OTLP: ff.otlp.options(), KeyFiles: ff.keys.byURL(),
		MaxStreams: ff.scale.maxStreams, MaxListed: ff.scale.maxListed, WatchTimeout: ff.scale.watchTimeout,
		Guards: ff.guards.in(env.Config), Archived: ff.archived}
	if err := ff.scale.check(); err != nil {
		return nil, o, err
	}
	u, err := headless.ParseUntil(ff.until)
	if err != nil {
		return nil, o, usageErr(err.Error(), "--until all waits for every conversation, --until any for the first to end")
	}
	o.Until = u
	if ff.interval <= 0 {
		return nil, o, usageErr(fmt.Sprintf("--interval must be more than 0, not %s", ff.interval), "--interval 10s asks every ten seconds")
	}
	o.Headless = ff.headless || ff.json || !env.IsTerminal
	if o.Until != headless.UntilNever && !o.Headless {
		return nil, o, usageErr("--until needs --headless", "ohwatch fleet --headless --until all")
	}
	sources := p
	if len(p) == 0 && env.Config != nil && env.Config.Sources.Value != nil {
		sources = env.Config.Sources.Value
		if err := checkFleetSources(sources, env, &ff.keys); err != nil {
			return nil, o, fmt.Errorf("config %s: fleet.sources: %w", env.Config.Sources.From, err)
		}
	} else if len(p) == 0 {
		sources = []string{files.DefaultRoot()}
		if env.Getenv("OH_API_KEY") != "" {
			sources = append(sources, "cloud")
		}
	} else if err := checkFleetSources(p, env, &ff.keys); err != nil {
		return nil, o, err
	}
	if o.Theme, err = ff.theme.resolve(env.Getenv, env.Config); err != nil && !o.Headless {
		return nil, o, usageErr(err.Error(), "")
	}
	return sources, o, nil
}

// checkFleetSources checks each SOURCE argument: "cloud" (which needs
// OH_API_KEY), an agent-server URL, or a conversations root that exists;
// none twice; every --session-key-file URL among the sources.
func checkFleetSources(pos []string, env *session.Env, keys *keyFiles) error {
	const hint = "a SOURCE is a conversations root, an agent-server URL (http://HOST:PORT) or cloud"
	seen := map[string]bool{}
	servers := map[string]bool{}
	for _, p := range pos {
		label := p
		switch {
		case p == "cloud":
			if strings.TrimSpace(env.Getenv("OH_API_KEY")) == "" {
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
func (k *keyFiles) Type() string   { return "URL=FILE" }

func (k *keyFiles) Set(s string) error {
	kf := keyFile{path: s}
	if u, path, ok := strings.Cut(s, "="); ok && session.IsURL(u) {
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

// byURL is the key files by server base URL, "" for every server.
func (k *keyFiles) byURL() map[string]string {
	m := make(map[string]string, len(k.entries))
	for _, e := range k.entries {
		m[e.url] = e.path
	}
	return m
}
