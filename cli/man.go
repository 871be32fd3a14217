package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ManPages are the man pages, by file name (ohwatch.1, ohwatch-fleet.1, …),
// from the same help as the terminal's and the docs': ohwatch(1) holds
// the commands, the environment and the exit codes.
func ManPages() map[string][]byte {
	root := docsRoot()
	pages := map[string][]byte{}
	var b bytes.Buffer
	manHead(&b, "ohwatch", "watch OpenHands agent conversations live, replay them with time travel")
	b.WriteString(".SH SYNOPSIS\n.B ohwatch\n.I COMMAND\n[flags]\n.SH DESCRIPTION\n")
	b.WriteString(roff("ohwatch watches OpenHands agent conversations live (an agent-server, OpenHands Cloud, a local conversations root) and replays recorded ones with time travel. Alone in a terminal it opens the fleet of your conversations; piped, it prints its help. Start with ohwatch demo.") + "\n")
	for _, g := range commandGroups {
		fmt.Fprintf(&b, ".SS %s\n", roff(g.title))
		for _, n := range g.names {
			for _, c := range root.Commands() {
				if c.Name() == n {
					fmt.Fprintf(&b, ".TP\n.BR ohwatch-%s (1)\n%s\n", n, roff(c.Short))
				}
			}
		}
	}
	b.WriteString(".SH ENVIRONMENT\n")
	for _, g := range environment {
		for _, v := range g.vars {
			fmt.Fprintf(&b, ".TP\n.B %s\n%s (default: %s)\n", roff(v.name), roff(v.what), roff(v.def))
		}
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, c := range exitCodes {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", c[0], roff(c[1]))
	}
	pages["ohwatch.1"] = b.Bytes()
	for _, c := range docCommands(root) {
		h := helpOf(c)
		name := "ohwatch-" + docName(h.path)
		var p bytes.Buffer
		manHead(&p, name, h.short)
		fmt.Fprintf(&p, ".SH SYNOPSIS\n.nf\n%s\n.fi\n.SH DESCRIPTION\n%s\n", roff(h.usage), roff(h.text))
		if len(h.flags) > 0 {
			p.WriteString(".SH OPTIONS\n")
			for _, f := range h.flags {
				text := f.text
				if f.def != "" {
					text += " (default " + f.def + ")"
				}
				first, rest, table := strings.Cut(text, "\n")
				fmt.Fprintf(&p, ".TP\n.B %s\n%s\n", roff(f.spelling()), roff(first))
				if table {
					fmt.Fprintf(&p, ".nf\n%s\n.fi\n", roff(rest))
				}
			}
		}
		if len(h.examples) > 0 {
			p.WriteString(".SH EXAMPLES\n")
			for _, e := range h.examples {
				fmt.Fprintf(&p, "%s:\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n.PP\n", roff(upperFirst(e.what)), roff(e.line))
			}
		}
		for _, s := range h.subs {
			fmt.Fprintf(&p, ".SS %s %s\n%s\n", roff(h.path), roff(s[0]), roff(s[1]))
		}
		p.WriteString(".SH SEE ALSO\n.BR ohwatch (1)\n")
		pages[name+".1"] = p.Bytes()
	}
	return pages
}

// manHead is a page's title and NAME section. The page carries no date,
// so that the same tree gives the same bytes.
func manHead(b *bytes.Buffer, name, short string) {
	fmt.Fprintf(b, ".TH %s 1 \"\" \"ohwatch\" \"ohwatch manual\"\n.SH NAME\n%s \\- %s\n", strings.ToUpper(name), name, roff(short))
}

// roff escapes text for a man page: backslashes, dashes, and a line that
// would start with a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// WriteMan writes the man pages into dir.
func WriteMan(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range ManPages() {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
