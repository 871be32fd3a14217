// Command ohwatch watches OpenHands agent conversations live and replays
// recorded ones with time travel. main.go holds flags and wiring only: every
// command's work is done by the packages it calls.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"ohwatch/model"
)

// command is one subcommand: its one-line help and its entry point, which
// returns the process exit code.
type command struct {
	summary string
	run     func(args []string, env *environment) int
}

// environment is what a command may touch of the process: its streams and
// its environment variables (injected so tests can run commands in-process).
type environment struct {
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// isTerminal reports whether stdout is a terminal (the TUI needs one;
	// headless is automatic otherwise).
	isTerminal bool
	// recordWrite writes the files of --record (nil: the filesystem); tests
	// make the disk fill up through it.
	recordWrite func(dir, name string, data []byte) error
}

func commands() map[string]command {
	return map[string]command{
		"demo":   {"replay the built-in demo conversation live, over a real WebSocket", runDemo},
		"watch":  {"watch an agent-server conversation live: watch URL --conversation ID", runWatch},
		"cloud":  {"start or attach to an OpenHands Cloud conversation and watch it", runCloud},
		"replay": {"replay a recorded conversation (SDK dir, seed layout, JSONL, trajectory zip)", runReplay},
		"ls":     {"list conversations of a local root or of an agent-server", runList},
		"fleet":  {"watch every conversation at once: local roots, agent-servers, cloud", runFleet},
		"state":  {"print the derived state after the first N events: state PATH [--at N] [--json]", runState},
		"export": {"export a conversation: export PATH --format md|json|jsonl|otlp", runExport},
		"serve":  {"serve a recording through the agent-server protocol: serve PATH [--addr A] [--speed X]", runServe},
		"gen":    {"generate a realistic conversation: gen DIR --events N [--seed S] [--jsonl]", runGen},

		"compare": {"compare two runs step by step: compare A B [--json|--md], or compare FORK", runCompare},
	}
}

func main() {
	env := &environment{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, isTerminal: stdoutIsTerminal()}
	os.Exit(dispatch(os.Args[1:], env))
}

// dispatch runs the subcommand named by args[0].
func dispatch(args []string, env *environment) int {
	if len(args) == 0 {
		usage(env.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(env.stdout)
		return 0
	case "-v", "--version", "version":
		fmt.Fprintln(env.stdout, "ohwatch", version)
		return 0
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		names := slices.Sorted(maps.Keys(commands()))
		fmt.Fprintf(env.stderr, "ohwatch: unknown command %q\n", model.SanitizeLine(args[0]))
		fmt.Fprintf(env.stderr, "  hint: the commands are %s; 'ohwatch -h' says what each does\n", strings.Join(names, ", "))
		return exitUsage
	}
	return cmd.run(args[1:], env)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "ohwatch: watch OpenHands agent conversations live, replay them with time travel.")
	fmt.Fprintln(w, "\nUsage: ohwatch COMMAND [flags]   (ohwatch COMMAND -h for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-7s %s\n", name, cmds[name].summary)
	}
	fmt.Fprintln(w, "\nExit codes: 0 confirmed finished, 1 error, 2 bad usage, 3 stuck,")
	fmt.Fprintln(w, "4 could not connect / auth rejected / not found, 5 no terminal state,")
	fmt.Fprintln(w, "6 --record could not write every event, 7 the TUI could not run,")
	fmt.Fprintln(w, "130 interrupted (Ctrl-C, SIGINT), 143 SIGTERM, 129 SIGHUP.")
}
