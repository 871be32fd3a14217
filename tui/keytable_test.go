package tui

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/model"
)

// TestKeysMeanOneThing walks every screen's table of actions and every key
// in it: a key means one action wherever it is bound, and an action has
// the same keys on every screen that supports it.
func TestKeysMeanOneThing(t *testing.T) {
	t.Parallel()
	tables := []screenKeys{conversationKeyTable(DefaultKeyMap()), fleetKeyTable(DefaultFleetKeyMap()), compareKeyTable(DefaultCompareKeyMap())}
	meaning := map[string]string{}  // key → "action (screen)"
	keysOf := map[string][]string{} // action → its keys, as the first screen had them
	for _, tb := range tables {
		for action, keys := range tb.actions {
			for _, k := range keys {
				was, seen := meaning[k]
				if seen && !strings.HasPrefix(was, action+" (") {
					t.Errorf("%s means %s on %s but %s", k, action, tb.screen, was)
				}
				if !seen {
					meaning[k] = action + " (" + tb.screen + ")"
				}
			}
			sorted := slices.Clone(keys)
			sort.Strings(sorted)
			if prev, ok := keysOf[action]; ok && !slices.Equal(prev, sorted) {
				t.Errorf("%s is %v on %s, %v elsewhere", action, sorted, tb.screen, prev)
			} else if !ok {
				keysOf[action] = sorted
			}
		}
	}
}

// TestKeysOfAnotherScreenSaySo: a, x and space on the fleet, n and space
// on compare, do nothing there, and say so instead of nothing.
func TestKeysOfAnotherScreenSaySo(t *testing.T) {
	t.Parallel()
	f := NewFleet(FleetOptions{Feed: make(chan []model.FleetUpdate), NoColor: true, Where: "fleet", Now: func() time.Time { return fleetStart }})
	tm := termtest.Start(t, NewModel(f), 120, 30)
	w := &termWaiter{t: t, tm: tm}
	w.wait("? ")
	tm.Type("a")
	w.wait("a (accept pending) is a key of a conversation's view")
	tm.Type("x")
	w.wait("x (rejec")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	w.wait("space (play/pause")
	tm.Type("q")
	tm.Final(t, 5*time.Second)

	c := compareFixture(t, 120, 30)
	for _, k := range []string{"n", "space"} {
		c.Update(keyMsg(k))
		if !strings.Contains(c.View(), "is a key of a conversation's view, not of compare") {
			t.Errorf("%s on compare says nothing:\n%s", k, c.View())
		}
	}
}
