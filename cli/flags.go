package cli

import (
	"time"

	"github.com/spf13/pflag"

	"ohwatch/headless"
	"ohwatch/internal/redact"
	"ohwatch/session"
)

// viewFlags are the flags shared by the commands that show a conversation:
// demo, watch, cloud and replay.
type viewFlags struct {
	headless     bool
	json         bool
	record       string
	watchTimeout time.Duration
	confirmGrace time.Duration
	logFile      string
	// noNotify turns off the bell and desktop notifications of the TUI.
	noNotify bool
	// theme picks the TUI's palette.
	theme  themeFlag
	otlp   otlpFlags
	guards guardFlag
}

func (v *viewFlags) bind(fs *pflag.FlagSet) {
	fs.BoolVar(&v.headless, "headless", false, "print a line per event, each followed by its status line when it changes the status, instead of the TUI (automatic when stdout is not a terminal); the exit code says how the conversation ended")
	fs.BoolVar(&v.json, "json", false, "with --headless: print JSONL, one object per event, status change and awaited action, then the result with its verdict")
	fs.StringVar(&v.record, "record", "", "write every event as it arrives to `DIR` (SDK layout; one conversation per directory, locked while recording)")
	fs.DurationVar(&v.watchTimeout, "watch-timeout", 0, "give up (exit 5) when no terminal state is reached within this `duration` (0: never)")
	fs.DurationVar(&v.confirmGrace, "confirm-grace", headless.DefaultConfirmGrace, "how long a provisional finished waits for a full_state before REST is asked")
	fs.StringVar(&v.logFile, "log", "", "write diagnostics to `FILE` (the TUI never logs to the terminal)")
	fs.BoolVar(&v.noNotify, "no-notify", false, "no bell and no desktop notification (OSC 9/777) when the agent needs you")
	fs.Var(&v.theme, "theme", themeUsage)
	fs.Var(&v.guards, "guard", guardUsage)
	fs.BoolVar(&v.guards.none, "no-guards", false, noGuardsUsage)
	v.otlp.bind(fs)
}

// useHeadless says whether to print lines rather than open the TUI.
func (v *viewFlags) useHeadless(env *session.Env) bool {
	return v.headless || v.json || !env.IsTerminal
}

// options are the session's options the flags ask for; a wrong
// OHWATCH_THEME is a usage error when the TUI would show.
func (v *viewFlags) options(env *session.Env, secrets *redact.Secrets) (session.Options, error) {
	o := session.Options{
		Headless:     v.useHeadless(env),
		JSON:         v.json,
		Record:       v.record,
		WatchTimeout: v.watchTimeout,
		ConfirmGrace: v.confirmGrace,
		Notify:       !v.noNotify && env.Config.Notify(),
		OTLP:         v.otlp.options(),
		Secrets:      secrets,
		Guards:       v.guards.in(env.Config),
	}
	mode, err := v.theme.resolve(env.Getenv, env.Config)
	if err != nil && !o.Headless {
		return o, usageErr(err.Error(), "OHWATCH_THEME takes dark, light or auto; or pass --theme")
	}
	o.Theme = mode
	return o, nil
}

// otlpContentUsage is the help of --otlp-content, on export and the live
// commands alike.
const otlpContentUsage = "with otlp: include tool-call arguments and outputs in the spans (sanitised, capped at 4 KiB each)"

// otlpFlags are --otlp[=ENDPOINT] and --otlp-content of the commands that
// show a conversation.
type otlpFlags struct {
	on       bool
	endpoint string
	content  bool
}

func (o *otlpFlags) bind(fs *pflag.FlagSet) {
	f := fs.VarPF(otlpValue{o}, "otlp", "", "send the conversation's spans to an OTLP endpoint as they end: --otlp alone uses OTEL_EXPORTER_OTLP_ENDPOINT (else localhost), --otlp=URL names one")
	f.NoOptDefVal = "true"
	fs.BoolVar(&o.content, "otlp-content", false, otlpContentUsage)
}

func (o *otlpFlags) options() session.OTLP {
	return session.OTLP{On: o.on, Endpoint: o.endpoint, Content: o.content}
}

// otlpValue makes --otlp a flag whose value is optional: `--otlp` alone,
// or `--otlp=URL`. (A separate `--otlp URL` would be ambiguous with the
// URL that watch takes.)
type otlpValue struct{ f *otlpFlags }

func (v otlpValue) String() string { return "" }
func (v otlpValue) Type() string   { return "ENDPOINT" }
func (v otlpValue) Set(s string) error {
	switch s {
	case "true":
		v.f.on = true
	case "false":
		v.f.on = false
	default:
		v.f.on, v.f.endpoint = true, s
	}
	return nil
}

// branchUsage is the help of --branch on every command that reads a
// recording along one path of its tree.
const branchUsage = "follow the branch through event `ID` of a conversation that was navigated (SDK v1.31+): the path from the root through it to HEAD when HEAD is below it, else to the newest event below it (default: HEAD's path)"

// bindBranch adds --branch to fs.
func bindBranch(fs *pflag.FlagSet) *string {
	return fs.String("branch", "", branchUsage)
}
