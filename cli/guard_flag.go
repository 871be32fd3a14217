package cli

import (
	"strings"

	"ohwatch/config"
	"ohwatch/guard"
)

// guardUsage is --guard's help text.
const guardUsage = "a `RULE` that acts when the conversation passes a limit (repeatable): " + guard.Usage +
	"; a pause or interrupt guard ends a headless watch with exit 8 once the server confirms the pause; on a recording it is a dry run"

// guardFlag collects repeated --guard rules, each checked as it is given,
// so a bad rule is a usage error (exit 2) naming it on one line.
type guardFlag struct {
	rules []guard.Rule
	// none is --no-guards: the config file's guards are not used (only the
	// --guard rules given beside it, if any).
	none bool
}

// noGuardsUsage is --no-guards' help text.
const noGuardsUsage = "use no guards from the config file (only the --guard rules given, if any)"

// in is the rules in force: the --guard rules, else unless --no-guards
// the config file's.
func (g *guardFlag) in(cfg *config.Config) []guard.Rule {
	if g.none && len(g.rules) == 0 {
		return nil
	}
	return cfg.GuardRules(g.rules)
}

func (g *guardFlag) String() string {
	if g == nil {
		return ""
	}
	texts := make([]string, len(g.rules))
	for i, r := range g.rules {
		texts[i] = r.Text
	}
	return strings.Join(texts, " ")
}

func (g *guardFlag) Set(s string) error {
	r, err := guard.Parse(s)
	if err != nil {
		return err
	}
	g.rules = append(g.rules, r)
	return nil
}

func (g *guardFlag) Type() string { return "RULE" }
