package conversation

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestRebindWorksAndShowsInHelp: a conversation view given a KeyMap whose
// bookmark is on M bookmarks with M, no longer with m, and its help names
// M for "bookmark".
func TestRebindWorksAndShowsInHelp(t *testing.T) {
	t.Parallel()
	km := tui.DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"bookmark": {"K"}}); err != nil {
		t.Fatal(err)
	}
	// A bookmarked row is marked ★ in the list's gutter.
	m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t), KeyMap: km}, 120, 40), "j", "m")
	if strings.Contains(screen(m), "★") {
		t.Fatalf("m still bookmarks:\n%s", screen(m))
	}
	m, _ = press(t, m, "K")
	if row := selectedRow(screen(m)); !strings.Contains(row, "★") {
		t.Fatalf("K did not bookmark: %q", row)
	}
	m, _ = press(t, m, "?")
	if v := m.View(); !regexp.MustCompile(`(^|\s)K\s+bookmark`).MatchString(v) {
		t.Errorf("the help does not show K for bookmark:\n%s", v)
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
		km := tui.DefaultKeyMap()
		err := km.Rebind(c.keys)
		var ke *tui.KeyError
		if err == nil || !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.keys, err, c.want)
		}
	}
	km := tui.DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"play": {"z"}}); err != nil {
		t.Errorf("play on z (fold's too, which shares space with play by default): %v", err)
	}
	if got := tui.DefaultKeyMap().Actions(); !slices.Contains(got, "export-jsonl") || !slices.Contains(got, "next-error") {
		t.Errorf("actions: %v", got)
	}
}

// TestRebindShowsInFooter: the inspector's footer names copy's new key.
func TestRebindShowsInFooter(t *testing.T) {
	t.Parallel()
	km := tui.DefaultKeyMap()
	if err := km.Rebind(map[string][]string{"copy": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	m, _ := press(t, newModel(Options{Log: tuitest.ErrorLog(t), KeyMap: km}, 160, 40), "enter")
	v := m.View()
	if !strings.Contains(v, "ctrl+y copy") || strings.Contains(v, " y copy") {
		t.Errorf("the footer does not name ctrl+y for copy:\n%s", v)
	}
}
