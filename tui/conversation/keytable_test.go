package conversation

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"ohwatch/tui"
)

// TestKeysMeanOneThing walks every screen's table of actions and every key
// in it: a key means one action wherever it is bound, and an action has
// the same keys on every screen that supports it.
func TestKeysMeanOneThing(t *testing.T) {
	t.Parallel()
	tables := []tui.ScreenKeys{tui.ConversationKeyTable(tui.DefaultKeyMap()), tui.FleetKeyTable(tui.DefaultFleetKeyMap()), tui.CompareKeyTable(tui.DefaultCompareKeyMap())}
	meaning := map[string]string{}  // key → "action (screen)"
	keysOf := map[string][]string{} // action → its keys, as the first screen had them
	for _, tb := range tables {
		for action, keys := range tb.Actions {
			for _, k := range keys {
				was, seen := meaning[k]
				if seen && !strings.HasPrefix(was, action+" (") {
					t.Errorf("%s means %s on %s but %s", k, action, tb.Screen, was)
				}
				if !seen {
					meaning[k] = action + " (" + tb.Screen + ")"
				}
			}
			sorted := slices.Clone(keys)
			sort.Strings(sorted)
			if prev, ok := keysOf[action]; ok && !slices.Equal(prev, sorted) {
				t.Errorf("%s is %v on %s, %v elsewhere", action, sorted, tb.Screen, prev)
			} else if !ok {
				keysOf[action] = sorted
			}
		}
	}
}
