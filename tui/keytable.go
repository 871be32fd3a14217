package tui

import (
	"reflect"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Keys mean the same thing on every screen. Each screen's key map is its
// declaration of the actions it supports: a binding's action is its
// field's name in kebab case ("next-error"), or the shared name canon
// gives it where screens name one action differently (enter is "open"
// everywhere: inspect an event, open a row, diff a row). The keys of a
// question, a prompt or the kind picker (inner) are the question's, not
// the screen's. TestKeysMeanOneThing walks every screen's table and
// fails on a key that means two things; a key that means something on
// another screen says so where it does not (unsupported).

// ScreenKeys is one screen's table: each top-level action and its keys.
type ScreenKeys struct {
	Screen  string
	Actions map[string][]string
	// desc is each action's help, as the screen words it.
	desc map[string]string
}

// keyTable builds a screen's table from its key map km.
func keyTable(screen string, km any, canon map[string]string, inner []string) ScreenKeys {
	v := reflect.ValueOf(km)
	out := ScreenKeys{Screen: screen, Actions: map[string][]string{}, desc: map[string]string{}}
	for i := 0; i < v.NumField(); i++ {
		b, ok := v.Field(i).Interface().(key.Binding)
		name := v.Type().Field(i).Name
		if !ok || slices.Contains(inner, name) {
			continue
		}
		action := kebab(name)
		if c, ok := canon[name]; ok {
			action = c
		}
		for _, k := range b.Keys() {
			if !slices.Contains(out.Actions[action], k) {
				out.Actions[action] = append(out.Actions[action], k)
			}
		}
		if _, ok := out.desc[action]; !ok {
			out.desc[action] = b.Help().Desc
		}
	}
	return out
}

// ConversationKeyTable is the conversation view's table. The inspector's
// own keys (raw, diff, fold, wrap, sideways, its home and end) are inner:
// they apply in the inspector, which is a screen over the list.
func ConversationKeyTable(k KeyMap) ScreenKeys {
	return keyTable("conversation", k, map[string]string{
		"Inspect": "open", "Bookmark": "mark", "CompareParent": "compare", "HalfDown": "page-down", "HalfUp": "page-up",
	}, []string{"OlderSearch", "NewerSearch", "Submit", "Pick", "Invert", "Clear", "Home", "End", "Raw", "Diff", "Fold",
		"Wrap", "Left", "Right", "ExportMarkdown", "ExportJSON", "ExportJSONL", "Confirm", "Choose", "PolicyPick",
		"SendMessage", "RunToggle"})
}

// FleetKeyTable is the fleet table's.
func FleetKeyTable(k FleetKeyMap) ScreenKeys {
	return keyTable("fleet", k, map[string]string{
		"Filter": "search", "Status": "filter", "CancelOpen": "back",
	}, []string{"Accept", "Clear", "Resume", "ReadOnly", "Confirm", "PolicyPick", "SendMessage", "RunToggle"})
}

// CompareKeyTable is the compare screen's: ] and [ walk the rows worth a
// look (differences) as they walk errors in a conversation.
func CompareKeyTable(k CompareKeyMap) ScreenKeys {
	return keyTable("compare", k, map[string]string{"NextDiff": "next-error", "PrevDiff": "prev-error"}, nil)
}

// action is what key means on this screen ("" for nothing).
func (s ScreenKeys) action(k string) string {
	for a, keys := range s.Actions {
		if slices.Contains(keys, k) {
			return a
		}
	}
	return ""
}

// Unsupported says what a key pressed on screen s does on the
// conversation view, where s does not answer it ("a accepts pending in a
// conversation's view"); "" for a key that means nothing anywhere.
func Unsupported(s ScreenKeys, msg tea.KeyPressMsg, where string) string {
	k := msg.String()
	if s.action(k) != "" {
		return ""
	}
	conv := ConversationKeyTable(DefaultKeyMap())
	if a := conv.action(k); a != "" {
		return k + " (" + conv.desc[a] + ") is a key of " + where
	}
	return ""
}
