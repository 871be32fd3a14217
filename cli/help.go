package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"ohwatch/session"
)

// The help is built once, as data (cmdHelp), from the cobra tree and the
// tables below, and written three ways: to the terminal (-h, help), as
// markdown (docs/commands) and as man pages. So the three never disagree,
// and a test regenerates the docs to catch them going stale.

// commandGroup is a titled group of commands in ohwatch's help, in the
// order a newcomer meets them.
type commandGroup struct {
	id, title string
	names     []string
}

// commandGroups order the root help: the way in first.
var commandGroups = []commandGroup{
	{"start", "Start here", []string{"demo"}},
	{"watch", "Watch", []string{"watch", "cloud", "fleet", "ls"}},
	{"recordings", "Recordings", []string{"replay", "state", "export", "compare"}},
	{"tools", "Tools", []string{"serve", "gen", "config"}},
	{"more", "More", []string{"help", "version", "completion"}},
}

// example is one example of a command: what it does, and the line.
type example struct{ what, line string }

// examples are each command's examples, by command path without
// "ohwatch ". They use the help's one placeholder style: a word in
// capitals (ID, DIR, FILE) stands for a value of yours.
var examples = map[string][]example{
	"demo": {
		{"the story in the TUI: live events, a confirmation to answer, the finish", "ohwatch demo"},
		{"ten times faster, a line per event, the exit code saying how it ended", "ohwatch demo --speed 10 --headless"},
		{"a fleet of five conversations (one waits for you, one errors, one gets stuck)", "ohwatch demo --fleet"},
	},
	"watch": {
		{"a conversation of a local agent-server, its key from SESSION_API_KEY", "ohwatch watch http://127.0.0.1:8000 --conversation ID"},
		{"in CI: JSON lines, the exit code for the outcome, at most 30 minutes", "ohwatch watch http://127.0.0.1:8000 --conversation ID --json --watch-timeout 30m"},
		{"pause the agent once it has spent $5, and keep every event", "ohwatch watch http://127.0.0.1:8000 --conversation ID --guard 'cost>5:pause' --record DIR"},
	},
	"cloud": {
		{"start a Cloud conversation and watch it (the key from OH_API_KEY)", "ohwatch cloud --message 'Write a haiku about Go, then stop.'"},
		{"attach to a conversation already running", "ohwatch cloud --conversation ID"},
		{"headless, leaving the sandbox running at the end", "ohwatch cloud --message TEXT --keep --headless"},
	},
	"fleet": {
		{"every conversation of the local root (~/.openhands/conversations)", "ohwatch fleet"},
		{"a root, an agent-server and Cloud in one table", "ohwatch fleet ~/.openhands/conversations http://127.0.0.1:8000 cloud"},
		{"in CI: a line per status change until every conversation has ended", "ohwatch fleet http://127.0.0.1:8000 --headless --until all"},
	},
	"ls": {
		{"the conversations of the local root, newest first", "ohwatch ls"},
		{"an agent-server's conversations", "ohwatch ls http://127.0.0.1:8000 --session-key-file FILE"},
		{"as JSON, for a script", "ohwatch ls DIR --json"},
	},
	"replay": {
		{"a recorded conversation in the TUI, with time travel", "ohwatch replay ~/.openhands/conversations/ID"},
		{"a line per event and the exit code, for a script", "ohwatch replay FILE.jsonl --headless"},
		{"a conversation still being written, as it grows", "ohwatch replay DIR --follow"},
	},
	"state": {
		{"how a recording ended: status, verdict, metrics", "ohwatch state DIR"},
		{"the state after its first 40 events, as JSON", "ohwatch state DIR --at 40 --json"},
	},
	"export": {
		{"a readable transcript", "ohwatch export DIR --format md -o transcript.md"},
		{"the events as JSONL, or OTLP traces for a tracing backend", "ohwatch export DIR --format otlp -o traces.json"},
	},
	"compare": {
		{"two runs of the same task, step by step", "ohwatch compare DIR_A DIR_B"},
		{"a fork against the conversation it was forked from", "ohwatch compare FORK_DIR"},
		{"a report for a pull request", "ohwatch compare DIR_A DIR_B --md > compare.md"},
	},
	"serve": {
		{"a recording as a live agent-server, ten times faster", "ohwatch serve DIR --speed 10"},
		{"a root of conversations, started 5 s apart, forever", "ohwatch serve ROOT --stagger 5s --loop"},
		{"a server that drops the socket every 20 frames", "ohwatch serve DIR --fault drop-every=20"},
	},
	"gen": {
		{"a conversation of 200 events", "ohwatch gen DIR --events 200"},
		{"a conversations root: one conversation and two forks of it", "ohwatch gen DIR --events 60 --forks 2"},
		{"one JSONL file", "ohwatch gen FILE.jsonl --events 500 --jsonl"},
	},
	"config": {
		{"the settings in effect and where each came from", "ohwatch config"},
		{"what a theme from the environment changes", "OHWATCH_THEME=light ohwatch config"},
	},
	"version": {
		{"the version, commit, build date, Go version and platform", "ohwatch version"},
		{"the same", "ohwatch --version"},
	},
	"completion": {
		{"bash, for every new shell", "ohwatch completion bash > ~/.local/share/bash-completion/completions/ohwatch"},
		{"zsh, in this shell", "source <(ohwatch completion zsh)"},
	},
	"help": {
		{"every environment variable ohwatch reads", "ohwatch help environment"},
		{"what each exit code means", "ohwatch help exit-codes"},
		{"the --guard rules", "ohwatch help guards"},
	},
}

// placeholders name the value of a flag whose usage does not name it
// (with `NAME` in backquotes); any other takes its type's (typePlaceholders).
var placeholders = map[string]string{
	"conversation": "ID", "sandbox-spec-id": "ID", "base-url": "URL", "message": "TEXT",
	"session-key": "KEY", "format": "FORMAT", "addr": "HOST:PORT", "events": "N", "branches": "K",
	"forks": "F", "seed": "S", "speed": "X",
}

// typePlaceholders spell a flag's type, which pflag shows when the usage
// names no value, in the help's style.
var typePlaceholders = map[string]string{
	"duration": "DURATION", "int": "N", "float": "X", "string": "TEXT", "address": "HOST:PORT", "uint": "N", "int64": "N",
}

// flagHelp is one flag as the help shows it.
type flagHelp struct {
	name, short string
	// value is the placeholder of its value ("" for a switch); optional
	// says the value may be left out (--otlp[=ENDPOINT]).
	value    string
	optional bool
	text     string
	def      string
}

// spelling is the flag as the help spells it: --otlp[=ENDPOINT], -o.
func (f flagHelp) spelling() string {
	s := "--" + f.name
	if f.short != "" {
		s += ", -" + f.short
	}
	switch {
	case f.optional:
		s += "[=" + f.value + "]"
	case f.value != "":
		s += " " + f.value
	}
	return s
}

// cmdHelp is one command's help.
type cmdHelp struct {
	path     string // "ohwatch fleet"
	usage    string // "ohwatch fleet [ROOT|URL|cloud]… [flags]"
	short    string
	text     string // what it does: the long text, else the short one
	examples []example
	subs     [][2]string // name, short
	flags    []flagHelp
}

// guardRef is --guard's help in a command's flags: the rules are told
// once, in 'ohwatch help guards'.
const guardRef = "a RULE that acts when the conversation passes a limit, e.g. cost>5:pause (repeatable); the rules: 'ohwatch help guards'"

// helpOf builds cmd's help.
func helpOf(cmd *cobra.Command) cmdHelp {
	h := cmdHelp{path: cmd.CommandPath(), short: cmd.Short, text: cmd.Long, examples: examples[strings.TrimPrefix(cmd.CommandPath(), "ohwatch ")]}
	if h.text == "" {
		h.text = cmd.Short
	}
	h.usage = usageLine(cmd)
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			h.subs = append(h.subs, [2]string{c.Name(), c.Short})
		}
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" || f.Hidden {
			return
		}
		h.flags = append(h.flags, flagHelpOf(f))
	})
	return h
}

// usageLine is the command's usage in the help's one style: its path,
// its arguments and the flags it needs, then [flags] for the rest, which
// the help lists with their values. The arguments come from cmd.Use:
// all but the optional flags, up to a second form ("| …").
func usageLine(cmd *cobra.Command) string {
	words := strings.Fields(cmd.Use)
	out := []string{cmd.CommandPath()}
	depth, keep := 0, true
	for _, w := range words[min(1, len(words)):] {
		if w == "|" && depth == 0 {
			break
		}
		if depth == 0 {
			// An optional argument ([B], [PATH|URL]) stays; optional
			// flags ([--json]) are the [flags].
			keep = !strings.HasPrefix(w, "[-")
		}
		if keep {
			out = append(out, w)
		}
		depth += strings.Count(w, "[") - strings.Count(w, "]")
	}
	if cmd.HasAvailableLocalFlags() {
		out = append(out, "[flags]")
	}
	return strings.Join(out, " ")
}

// flagHelpOf is one flag's help: its placeholder in capitals, its text,
// and its default when the text does not say it.
func flagHelpOf(f *pflag.Flag) flagHelp {
	name, text := pflag.UnquoteUsage(f)
	fh := flagHelp{name: f.Name, short: f.Shorthand, text: text}
	if f.Value.Type() != "bool" {
		switch {
		case placeholders[f.Name] != "":
			fh.value = placeholders[f.Name]
		case typePlaceholders[name] != "":
			fh.value = typePlaceholders[name]
		case strings.Contains(name, "|"):
			fh.value = name // the choices: dark|light|auto
		default:
			fh.value = strings.ToUpper(name)
		}
		fh.optional = f.NoOptDefVal != ""
	}
	if f.Name == "guard" {
		fh.text = guardRef
		if strings.Contains(text, "in a fleet") {
			fh.text += "; in a fleet, each conversation on its own"
		}
	}
	if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" && def != "[]" && !strings.Contains(text, "(default") {
		if f.Value.Type() == "string" {
			def = fmt.Sprintf("%q", def)
		}
		fh.def = def
	}
	return fh
}

// writeText writes the help to the terminal.
func (h cmdHelp) writeText(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", h.usage, h.text)
	if len(h.subs) > 0 {
		fmt.Fprintln(w, "\nCommands:")
		for _, s := range h.subs {
			fmt.Fprintf(w, "  %-10s %s\n", s[0], s[1])
		}
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  # %s\n  %s\n", e.what, e.line)
		}
	}
	if len(h.flags) > 0 {
		fmt.Fprintln(w, "\nFlags:")
		for _, f := range h.flags {
			fmt.Fprintf(w, "  %s\n", f.spelling())
			text := f.text
			if f.def != "" {
				text += " (default " + f.def + ")"
			}
			fmt.Fprintf(w, "    \t%s\n", strings.ReplaceAll(text, "\n", "\n    \t"))
		}
	}
	fmt.Fprintf(w, "\nMore: 'ohwatch help environment', 'ohwatch help exit-codes'; docs/commands/%s.md\n", docName(h.path))
}

// docName is the name of a command's page under docs/commands:
// "ohwatch completion bash" is completion-bash.
func docName(path string) string {
	name := strings.ReplaceAll(strings.TrimPrefix(path, "ohwatch "), " ", "-")
	if name == "ohwatch" {
		return "ohwatch"
	}
	return name
}

// printHelp prints a command's help.
func printHelp(w io.Writer, cmd *cobra.Command) { helpOf(cmd).writeText(w) }

// rootHelp prints ohwatch's help: the commands by group, each with what
// it does and its usage line, and where to read more.
func rootHelp(w io.Writer, root *cobra.Command) {
	fmt.Fprintln(w, "ohwatch: watch OpenHands agent conversations live, replay them with time travel.")
	fmt.Fprintln(w, "\nUsage: ohwatch COMMAND [flags]   (ohwatch alone, in a terminal: the fleet of your conversations)")
	byName := map[string]*cobra.Command{}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			byName[c.Name()] = c
		}
	}
	for _, g := range commandGroups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, n := range g.names {
			c := byName[n]
			if c == nil {
				continue
			}
			fmt.Fprintf(w, "  %-10s %s\n", n, c.Short)
			if c.Use != c.Name() && n != "help" {
				fmt.Fprintf(w, "  %-10s %s\n", "", helpOf(c).usage)
			}
		}
	}
	fmt.Fprintln(w, "\nFlags: --version, -v prints the version; -h, --help any command's help.")
	fmt.Fprintln(w, "\nTopics: 'ohwatch help environment' (the variables ohwatch reads), 'ohwatch help exit-codes',")
	fmt.Fprintln(w, "'ohwatch help guards' (the --guard rules). Try it first: ohwatch demo")
}

// rootSuggestion is the command the mistyped name most likely meant, "" for
// none.
func rootSuggestion(root *cobra.Command, name string) string {
	root.SuggestionsMinimumDistance = 2
	if s := root.SuggestionsFor(name); len(s) > 0 {
		return s[0]
	}
	return ""
}

// flagSuggestion is the flag of cmd the mistyped --name most likely
// meant: the nearest by edit distance (at most 2), or the only one it is
// a prefix of; "" for none.
func flagSuggestion(cmd *cobra.Command, name string) string {
	best, bestD := "", 3
	prefixed := []string{}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
		if len(name) >= 2 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
	})
	if best == "" && len(prefixed) == 1 {
		best = prefixed[0]
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// withFlagSuggestion adds "did you mean --flag?" to an unknown flag that
// is near one of cmd's.
func withFlagSuggestion(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return err
	}
	name, _, _ = strings.Cut(name, "=")
	s := flagSuggestion(cmd, name)
	if s == "" {
		return err
	}
	return usageErr(flagMistake(msg), fmt.Sprintf("did you mean --%s? '%s -h' lists the flags", s, cmd.CommandPath()))
}

// bareFleet is ohwatch alone in a terminal: the fleet over the configured
// sources (config.yaml's fleet.sources, else the local root, and Cloud
// when OH_API_KEY is set), with its default flags.
func bareFleet(env *session.Env, root *cobra.Command) error {
	fleet, _, err := root.Find([]string{"fleet"})
	if err != nil || fleet == root {
		return err
	}
	if err := loadConfig(env, fleet); err != nil {
		return err
	}
	err = fleet.RunE(fleet, nil)
	var code exitCode
	if err == nil || errors.As(err, &code) {
		return err
	}
	// Said as the fleet's mistake: it is the fleet that ran.
	return exitCode(reportUsage(env.Stderr, "fleet", err))
}
