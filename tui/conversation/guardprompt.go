package conversation

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
)

// openGuards opens the L prompt: the rules in force to edit, and where
// each stands beside them.
func (m *Conversation) openGuards() {
	in := NewTextInput()
	var rules []string
	for _, g := range m.Opts.Guards.Guards() {
		rules = append(rules, g.Rule.Text)
	}
	in.SetValue(strings.Join(rules, ", "))
	in.CursorEnd()
	m.openPrompt(Prompt{Kind: promptGuards, in: in, note: m.guardStates()})
}

// guardStates says where every guard stands, "cost>5:pause $4.10/$5 ·
// steps>20 12/20 · tripped: repeat>3", or that there are none.
func (m *Conversation) guardStates() string {
	var armed, tripped []string
	for _, g := range m.Opts.Guards.Guards() {
		if g.Tripped {
			tripped = append(tripped, g.Rule.Text)
			continue
		}
		value := "?"
		if g.Known {
			value = guard.Format(g.Rule.Metric, g.Value)
		}
		armed = append(armed, g.Rule.Text+" "+value+"/"+guard.Short(g.Rule.Metric, g.Next))
	}
	if len(tripped) > 0 {
		armed = append(armed, "tripped: "+strings.Join(tripped, ", "))
	}
	if len(armed) == 0 {
		return "no guards (" + guardExample + ")"
	}
	return sanitize.Line(strings.Join(armed, " · "))
}

// guardExample shows the rule syntax in the prompt when there is none.
const guardExample = "cost>5:pause, steps>50, idle>10m"

// setGuards puts the typed rules in force in place of the old ones (empty:
// none). A rule that does not parse changes nothing and says why. The new
// set catches up on the events so far without acting, then judges from
// the next event on: a rule kept from before keeps where it stood, a new
// one already past its limit trips at the next event (guard.TakeOver).
func (m *Conversation) setGuards(text string) tea.Cmd {
	rules, err := guard.ParseAll(splitRules(text))
	if err != nil {
		return m.setFlash(sanitize.Line(err.Error()))
	}
	if len(rules) == 0 {
		m.Opts.Guards, m.guarded = nil, guardView{}
		return m.setFlash("guards: none")
	}
	set := guard.New(rules)
	st := m.Log.Initial()
	var note string
	for i := 0; i < m.Log.Len(); i++ {
		ev := m.Log.Event(i)
		st = reducer.ApplyAt(st, i, ev)
		for _, rep := range set.Observe(i, ev, &st) {
			if rep.Kind == guard.CannotJudge {
				note = "guard " + rep.Rule.Text + ": " + rep.Note
			}
		}
	}
	set.TakeOver(m.Opts.Guards)
	m.Opts.Guards = set
	m.guarded = guardView{st: st, n: m.Log.Len(), note: note}
	m.fixTop()
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.Text
	}
	return m.setFlash("guards: " + sanitize.Line(strings.Join(texts, ", ")))
}

// submitGuards puts the typed rules in force; a rule that does not parse
// keeps the prompt open with the edit as typed, the cursor on that rule and
// the mistake beside it, and changes nothing.
func (m *Conversation) submitGuards(p Prompt) tea.Cmd {
	text := p.in.Value()
	at, err := firstBadRule(text)
	if err == nil {
		return m.setGuards(text)
	}
	why := sanitize.Line(err.Error())
	p.in.SetCursor(at)
	p.note = "✗ " + why
	m.openPrompt(p)
	return m.setFlash(why + ": nothing changed, fix it or esc")
}

// firstBadRule finds the first rule of text that does not parse: the rune
// offset it starts at and why.
func firstBadRule(text string) (int, error) {
	runes := []rune(text)
	for i := 0; i < len(runes); {
		if isRuleSep(runes[i]) {
			i++
			continue
		}
		j := i
		for j < len(runes) && !isRuleSep(runes[j]) {
			j++
		}
		if _, err := guard.Parse(string(runes[i:j])); err != nil {
			return i, err
		}
		i = j
	}
	return 0, nil
}

// isRuleSep is what separates typed rules: a comma or a space.
func isRuleSep(r rune) bool { return r == ',' || r == ' ' || r == '\t' }

// splitRules cuts the typed rules at commas and spaces; a rule holds
// neither ("cost>5:pause").
func splitRules(text string) []string {
	return strings.FieldsFunc(text, isRuleSep)
}
