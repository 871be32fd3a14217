package config

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"ohwatch/guard"
)

func ruleTexts(rules []guard.Rule) string {
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.Text
	}
	return strings.Join(texts, " ")
}

// TestGuardsFromTheFile: guards: holds rules as --guard takes them; they
// stand when no --guard is given, the flags replace them, and `ohwatch
// config` prints them with their line, in a form that loads back.
func TestGuardsFromTheFile(t *testing.T) {
	t.Parallel()
	path := write(t, "theme: dark\nguards: [\"cost>5:pause\", steps>20]\n")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleTexts(c.GuardRules(nil)); got != "cost>5:pause steps>20" || c.Guards.From.String() != path+":2" {
		t.Fatalf("guards %q from %v", got, c.Guards.From)
	}
	flag, _ := guard.ParseAll([]string{"errors>3"})
	if got := ruleTexts(c.GuardRules(flag)); got != "errors>3" {
		t.Errorf("with --guard: %q, want the flag's rules alone", got)
	}
	var out bytes.Buffer
	if err := c.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := `guards: \["cost>5:pause", "steps>20"\]\s+# ` + regexp.QuoteMeta(path) + `:2\n`
	if !regexp.MustCompile(want).MatchString(out.String()) {
		t.Fatalf("lacks %s:\n%s", want, out.String())
	}
	again, err := Load(write(t, out.String()))
	if err != nil || ruleTexts(again.GuardRules(nil)) != "cost>5:pause steps>20" {
		t.Fatalf("loaded back: %v, %v", again, err)
	}
	one, err := Load(write(t, "guards: idle>10m\n"))
	if err != nil || ruleTexts(one.GuardRules(nil)) != "idle>10m" {
		t.Errorf("a single rule: %v", err)
	}
	if (*Config)(nil).GuardRules(nil) != nil || ruleTexts(Defaults().GuardRules(nil)) != "" {
		t.Error("no file, yet guards")
	}
}

// TestGuardErrors: a rule that does not parse is one line naming the
// file, its own line and what is wrong.
func TestGuardErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"guards:\n  - cost>5\n  - cost>five:pause\n", `:3: guards: guard "cost>five:pause": `},
		{"guards: [steps>1:stop]\n", `:1: guards: guard "steps>1:stop": unknown action`},
		{"guards: {cost: 5}\n", `:1: guards: want a rule or a list of rules`},
	} {
		path := write(t, c.text)
		_, err := Load(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %s%s", c.text, err, path, c.want)
		}
	}
}
