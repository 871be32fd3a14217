package conversation

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestEveryBindingIsInTheHelp walks every binding of the KeyMap (every
// field, found by reflection, so a new binding cannot be left out) and
// checks the help lists it.
func TestEveryBindingIsInTheHelp(t *testing.T) {
	t.Parallel()
	km := tui.DefaultKeyMap()
	var listed []string
	for _, b := range km.All() {
		listed = append(listed, b.Help().Key+" "+b.Help().Desc)
	}
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		name := v.Type().Field(i).Name
		if len(b.Keys()) == 0 || b.Help().Desc == "" {
			t.Errorf("%s has no keys or no help", name)
			continue
		}
		if !slices.Contains(listed, b.Help().Key+" "+b.Help().Desc) {
			t.Errorf("%s (%s) is not in the help", name, b.Help().Key)
		}
	}
}

// TestEveryHandledKeyIsBound presses every key a terminal sends (every
// printable character, the named keys, ctrl with every letter) in every
// place of the conversation view; a key that does
// anything there other than what an unbound key does must be one of the
// KeyMap's. Text prompts are left out: there typing is the point.
func TestEveryHandledKeyIsBound(t *testing.T) {
	t.Parallel()
	bound := map[string]bool{}
	for _, b := range tui.DefaultKeyMap().All() {
		for _, k := range b.Keys() {
			bound[k] = true
		}
	}
	exportTo := func(string, string) (string, error) { return "", nil }
	places := map[string]func() *Conversation{
		"list": func() *Conversation { return newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30) },
		"live list": func() *Conversation {
			return liveModel(t, tuitest.WaitingLog(t), 100, 30, Options{Title: "t", Controls: &tuitest.Controls{}})
		},
		"inspector": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30), "]", "enter")
			return m
		},
		"raw JSON": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30), "]", "enter", "r", "w")
			return m
		},
		"help": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30), "?")
			return m
		},
		"picker": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30), "f")
			return m
		},
		"side pane": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t)}, 100, 30), "2")
			return m
		},
		"confirm": func() *Conversation {
			m := liveModel(t, tuitest.WaitingLog(t), 100, 30, Options{Title: "t", Controls: &tuitest.Controls{}})
			m, _ = press(t, m, "a")
			return m
		},
		"export": func() *Conversation {
			m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t), Export: exportTo}, 100, 30), "e")
			return m
		},
		"branched list": func() *Conversation {
			log := branchedLog(t, 300, 2)
			return jumpTo(t, newModel(Options{Log: log}, 100, 30), tui.Ordinal(log.BranchPoints()[0]))
		},
		"branch picker": func() *Conversation {
			log := branchedLog(t, 300, 2)
			m, _ := press(t, jumpTo(t, newModel(Options{Log: log}, 100, 30), tui.Ordinal(log.BranchPoints()[0])), "B")
			if !strings.Contains(screen(m), "branches at ") {
				t.Fatalf("B did not open the branch picker:\n%s", screen(m))
			}
			return m
		},
	}
	effect := func(build func() *Conversation, k tea.KeyPressMsg) string {
		m := build()
		cmd := m.Update(k)
		return screen(m) + "\x00" + strings.Repeat("cmd", boolInt(cmd != nil))
	}
	unbound := tuitest.KeyMsg("ctrl+]")
	for name, build := range places {
		idle := effect(build, unbound)
		for _, k := range terminalKeys() {
			if bound[k.String()] {
				continue
			}
			if effect(build, k) != idle {
				t.Errorf("%s: %q does something, and no binding of the KeyMap has it", name, k.String())
			}
		}
	}
}

// terminalKeys is every key press the test tries.
func terminalKeys() []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for r := '!'; r <= '~'; r++ {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for _, name := range []string{"space", "enter", "esc", "tab", "backspace", "up", "down", "home", "end", "pgup", "pgdown"} {
		out = append(out, tuitest.KeyMsg(name))
	}
	out = append(out, tea.KeyPressMsg{Code: tea.KeyLeft}, tea.KeyPressMsg{Code: tea.KeyRight})
	for r := 'a'; r <= 'z'; r++ {
		out = append(out, tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl})
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
