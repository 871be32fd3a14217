package tui

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"ohwatch/fleet"
)

// TestRebindWorksAndShowsInHelp: a conversation view given a KeyMap whose
// bookmark is on M bookmarks with M, no longer with m, and its help names
// M for "bookmark".
func TestRebindWorksAndShowsInHelp(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"bookmark": {"K"}}); err != nil {
		t.Fatal(err)
	}
	m, _ := press(t, newModel(Options{Log: errorLog(t), KeyMap: km}, 120, 40), "j", "m")
	if len(m.bookmarks) != 0 {
		t.Fatalf("m still bookmarks: %v", m.bookmarks)
	}
	m, _ = press(t, m, "K")
	if len(m.bookmarks) != 1 {
		t.Fatalf("K did not bookmark: %v", m.bookmarks)
	}
	m, _ = press(t, m, "?")
	if v := m.View(); !regexp.MustCompile(`(^|\s)K\s+bookmark`).MatchString(v) {
		t.Errorf("the help does not show K for bookmark:\n%s", v)
	}
}

// TestRebindFleetKey: the fleet's group on b groups with b.
func TestRebindFleetKey(t *testing.T) {
	t.Parallel()
	km := DefaultFleetKeyMap()
	if err := km.Rebind(map[string][]string{"group": {"b"}}); err != nil {
		t.Fatal(err)
	}
	f := newFleetScreen(t, 120, 30, FleetOptions{KeyMap: km})
	pressFleet(f, "v")
	if f.query.BySource {
		t.Fatal("v still groups")
	}
	pressFleet(f, "b")
	if !f.query.BySource {
		t.Fatal("b does not group")
	}
	if !slices.ContainsFunc(f.keys.FullHelp()[1], func(b key.Binding) bool { return b.Help().Key == "b" && b.Help().Desc == "view grouped by source" }) {
		t.Error("the fleet's help does not show b for grouping")
	}
}

// TestRebindRefused: an unknown action, no keys, and a key another action
// answers are errors naming the action; actions sharing a key by default
// (play and fold, in different places) may keep sharing it.
func TestRebindRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		keys map[string][]string
		want string
	}{
		{map[string][]string{"bookmarkk": {"K"}}, "bookmarkk: no such action"},
		{map[string][]string{"bookmark": {}}, "bookmark: no keys given"},
		{map[string][]string{"bookmark": {"n"}}, `bookmark: "n" is already the key of next-match`},
		{map[string][]string{"bookmark": {"ctrl x"}}, "bookmark: \"ctrl x\" is not a key name"},
	} {
		km := DefaultKeyMap()
		err := km.Rebind(c.keys)
		var ke *KeyError
		if err == nil || !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.keys, err, c.want)
		}
	}
	km := DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"play": {"z"}}); err != nil {
		t.Errorf("play on z (fold's too, which shares space with play by default): %v", err)
	}
	if got := DefaultKeyMap().Actions(); !slices.Contains(got, "export-jsonl") || !slices.Contains(got, "next-error") {
		t.Errorf("actions: %v", got)
	}
}

// TestFleetColumnsAndOrder: the configured columns are the only ones
// drawn, and the configured order is the table's first.
func TestFleetColumnsAndOrder(t *testing.T) {
	t.Parallel()
	f := newFleetScreen(t, 200, 30, FleetOptions{Columns: []fleet.Column{fleet.ColStatus, fleet.ColCost},
		Order: &fleet.Query{Sort: fleet.ColCost, Desc: true, BySource: true}})
	head := f.columnNames(f.columns(), 20)
	if !strings.Contains(head, "STATUS") || !strings.Contains(head, "COST") || strings.Contains(head, "IDLE") || strings.Contains(head, "TOKENS") {
		t.Errorf("columns: %q", head)
	}
	if f.query.Sort != fleet.ColCost || !f.query.Desc || !f.query.BySource {
		t.Errorf("order: %+v", f.query)
	}
}

// TestRebindShowsInFooter: the inspector's footer names copy's new key.
func TestRebindShowsInFooter(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"copy": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	m, _ := press(t, newModel(Options{Log: errorLog(t), KeyMap: km}, 160, 40), "enter")
	v := m.View()
	if !strings.Contains(v, "ctrl+y copy") || strings.Contains(v, " y copy") {
		t.Errorf("the footer does not name ctrl+y for copy:\n%s", v)
	}
}
