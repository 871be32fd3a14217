package conversation

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
	"ohwatch/tui/text"
)

// TestOpenedViewHoldsTheOpenersCommon: a conversation opened from another
// (a linked one, as a fork's is) holds the opener's Common whole, its
// keys, colours, width model and clock, none of it copied by hand. What
// a view holds is not on its screen until the router or a clock reading
// shows it, so the test reads the Common of the view pushed.
func TestOpenedViewHoldsTheOpenersCommon(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	keys := tui.DefaultKeyMap()
	keys.OpenLink = key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "open link")) // any rebinding
	c := tui.Common{KeyMap: keys, NoColor: true, Profile: colorprofile.NoTTY, Pager: "most",
		Cells: text.Graphemes(), Now: func() time.Time { return at }}
	m := NewConversationWith(c, Options{Log: tuitest.ErrorLog(t)})
	cmd := m.Update(linkOpenedMsg{link: Link{ID: childID}, opts: Options{Title: "child"}, end: func() {}})
	var msgs []any
	for _, msg := range tuitest.Results(t, cmd) {
		msgs = append(msgs, msg)
	}
	view := pushedView(msgs)
	if view == nil {
		t.Fatal("the link's view was not pushed")
	}
	if view.Cells != text.Graphemes() || !view.Clock().Equal(at) {
		t.Errorf("the opened view measures %v and reads %v, want the opener's model and clock", view.Cells, view.Clock())
	}
	if !view.Opts.NoColor || view.Opts.Pager != "most" || view.KeyMap.OpenLink.Help().Key != "L" || view.Opts.Title != "child" {
		t.Errorf("the opened view does not draw and answer as the opener: %+v", view.Opts)
	}
}
