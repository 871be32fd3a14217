package cli

import (
	"fmt"
	"io"
	"strings"

	"ohwatch/guard"
)

// helpTopic is a page of help that is not a command: 'ohwatch help NAME'.
type helpTopic struct {
	name, short string
	write       func(w io.Writer)
}

// helpTopics are the topics 'ohwatch help' knows besides the commands.
var helpTopics = []helpTopic{
	{"environment", "the environment variables ohwatch reads", writeEnvironment},
	{"exit-codes", "what each exit code means", writeExitCodes},
	{"guards", "the --guard rules: what they watch and what they do", writeGuards},
}

// topic is the topic called name, nil for none.
func topic(name string) *helpTopic {
	for i := range helpTopics {
		if helpTopics[i].name == name {
			return &helpTopics[i]
		}
	}
	return nil
}

// nearTopic is the topic a mistyped name most likely meant, "" for none.
func nearTopic(name string) string {
	for _, t := range helpTopics {
		if editDistance(name, t.name) <= 2 || (len(name) >= 3 && strings.HasPrefix(t.name, name)) {
			return t.name
		}
	}
	return ""
}

// envVar is one environment variable ohwatch reads.
type envVar struct{ name, what, def string }

// envGroup is a titled group of variables.
type envGroup struct {
	title string
	vars  []envVar
}

// environment is every variable the program reads (a test greps the tree
// for Getenv and LookupEnv and fails on one missing here).
var environment = []envGroup{
	{"Servers and keys", []envVar{
		{"SESSION_API_KEY", "the agent-server's session key (watch, ls, fleet, compare); serve requires it of its clients when set; kept off the screen, logs and recordings", "none"},
		{"OH_API_KEY", "the OpenHands Cloud API key (cloud, fleet cloud, ls cloud, compare cloud:ID); a bare fleet adds Cloud when set; kept off the screen", "none"},
		{"OH_API_BASE", "the Cloud app server's base URL (--base-url)", "https://app.all-hands.dev"},
		{"SANDBOX_SPEC_ID", "the runtime image spec id a started Cloud conversation asks for (--sandbox-spec-id)", "Cloud chooses"},
		{"POLL_TIMEOUT", "how long cloud waits for the sandbox and the start task, in seconds or a duration (--poll-timeout)", "3m"},
	}},
	{"Where things are", []envVar{
		{"OPENHANDS_CONVERSATIONS_DIR", "the local conversations root (fleet and ls without a SOURCE)", "$OPENHANDS_PERSISTENCE_DIR/conversations"},
		{"OPENHANDS_PERSISTENCE_DIR", "the OpenHands CLI's directory; its conversations/ is the local root when OPENHANDS_CONVERSATIONS_DIR is not set", "~/.openhands"},
		{"XDG_CONFIG_HOME", "where config.yaml is: $XDG_CONFIG_HOME/ohwatch/config.yaml (an absolute path only)", "~/.config"},
		{"XDG_STATE_HOME", "where the TUI's exports (key e) go: $XDG_STATE_HOME/ohwatch/exports", "~/.local/state"},
		{"HOME", "the home directory the defaults above start from", "the user's"},
	}},
	{"The terminal", []envVar{
		{"OHWATCH_THEME", "dark, light or auto: the TUI's colours when --theme is not given (before config.yaml's theme)", "auto"},
		{"NO_COLOR", "set and not empty: no colours (no-color.org)", "colours on"},
		{"TERM, COLORTERM, CLICOLOR, CLICOLOR_FORCE", "read to find how many colours the terminal shows", "detected"},
		{"PAGER", "the program key o pages an event's text with", "less"},
		{"VISUAL, EDITOR", "the editor key E opens a changed file in (VISUAL first)", "vi"},
		{"TMUX", "set (inside tmux): desktop notifications are wrapped for tmux's passthrough (tmux needs set -g allow-passthrough on)", "not in tmux"},
	}},
	{"Tracing (--otlp)", []envVar{
		{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT", "where --otlp alone sends spans (the first set wins)", "http://localhost:4318 (grpc: localhost:4317)"},
		{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf or grpc", "http/protobuf"},
		{"OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_EXPORTER_OTLP_HEADERS", "headers sent with the spans, key=value,… (an API key, say)", "none"},
		{"OTEL_SERVICE_NAME", "the spans' service.name", "ohwatch"},
	}},
	{"Go and tests", []envVar{
		{"GOGC", "when set, the fleet keeps it instead of its own garbage-collector target", "the fleet's own"},
		{"OHWATCH_UPSTREAM_REQUIRED", "1: tests that need the real servers and recordings in ../shared fail instead of skipping (CI sets it)", "skip"},
	}},
}

// writeEnvironment is 'ohwatch help environment'.
func writeEnvironment(w io.Writer) {
	fmt.Fprintln(w, "The environment variables ohwatch reads. A flag, when given, wins over its variable;")
	fmt.Fprintln(w, "a variable wins over config.yaml ('ohwatch config' shows where each setting came from).")
	for _, g := range environment {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, v := range g.vars {
			fmt.Fprintf(w, "  %s\n    \t%s (default: %s)\n", v.name, v.what, v.def)
		}
	}
}

// exitCodes are the exit codes, the same for every command (headless
// package's constants).
var exitCodes = [][2]string{
	{"0", "the conversation finished, confirmed by the server or its recording (or a command that is not a watch succeeded)"},
	{"1", "the conversation ended in error, or a fleet's worst outcome is an error"},
	{"2", "bad usage: a flag or argument is wrong (one line names it, one line hints)"},
	{"3", "the conversation is stuck"},
	{"4", "could not connect, the key was rejected, or the conversation was not found"},
	{"5", "no terminal state: --watch-timeout passed, or the recording ended first"},
	{"6", "--record could not write every event"},
	{"7", "the TUI could not run (no terminal it can use)"},
	{"8", "a pause or interrupt guard stopped the run"},
	{"129", "SIGHUP"},
	{"130", "interrupted: Ctrl-C, SIGINT"},
	{"143", "SIGTERM"},
}

// writeExitCodes is 'ohwatch help exit-codes'.
func writeExitCodes(w io.Writer) {
	fmt.Fprintln(w, "ohwatch's exit codes, the same for every command; a headless watch's says how it ended:")
	fmt.Fprintln(w)
	for _, c := range exitCodes {
		fmt.Fprintf(w, "  %-4s %s\n", c[0], c[1])
	}
	fmt.Fprintln(w, "\nA fleet with --until exits with its worst outcome: error > stuck > none > finished.")
}

// writeGuards is 'ohwatch help guards': the --guard rules, told once.
func writeGuards(w io.Writer) {
	fmt.Fprintln(w, "--guard RULE (repeatable; demo, watch, cloud, replay, fleet) acts when the conversation passes a limit.")
	fmt.Fprintln(w, "\nRULE is "+strings.SplitN(guard.Usage, ",", 2)[0]+":")
	fmt.Fprintln(w, "  METRIC  cost, tokens, steps, calls, idle, duration, errors, repeat or context")
	fmt.Fprintln(w, "  LIMIT   a number, a duration for idle and duration (10m), a percentage for context (90%)")
	fmt.Fprintln(w, "  ACTION  notify (the default), pause or interrupt")
	fmt.Fprintln(w, "\nIn full: "+guard.Usage+".")
	fmt.Fprintln(w, "\nA pause or interrupt guard ends a headless watch with exit 8 once the server confirms the pause.")
	fmt.Fprintln(w, "On a recording it is a dry run: it says what it would have done. In a fleet each conversation")
	fmt.Fprintln(w, "is guarded on its own, and the watch goes on. config.yaml's guards apply when no --guard is given;")
	fmt.Fprintln(w, "key L in the TUI lists the armed guards and changes them.")
	fmt.Fprintln(w, "\nExamples:\n  ohwatch watch http://127.0.0.1:8000 --conversation ID --guard 'cost>5:pause' --guard 'idle>10m'")
	fmt.Fprintln(w, "  ohwatch replay DIR --headless --guard 'steps>50:interrupt'")
}
