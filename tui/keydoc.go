package tui

import "charm.land/bubbles/v2/key"

// KeyRow is one binding as the keys page of the docs shows it: the keys
// as the help spells them, and what they do.
type KeyRow struct{ Keys, What string }

// KeyGroup is a titled group of bindings of one screen.
type KeyGroup struct {
	Title string
	Rows  []KeyRow
}

// KeyScreen is one screen's bindings, by group.
type KeyScreen struct {
	Name   string
	Groups []KeyGroup
}

// KeyPages are the default bindings of every screen, grouped as their
// help shows them: the docs' keys page is generated from them, so it
// cannot drift from what the screens answer.
func KeyPages() []KeyScreen {
	var conv []KeyGroup
	for _, g := range DefaultKeyMap().HelpGroups() {
		conv = append(conv, KeyGroup{g.Title, keyRows(g.Bindings)})
	}
	titled := func(titles []string, cols [][]key.Binding) []KeyGroup {
		var out []KeyGroup
		for i, c := range cols {
			title := "More"
			if i < len(titles) {
				title = titles[i]
			}
			out = append(out, KeyGroup{title, keyRows(c)})
		}
		return out
	}
	return []KeyScreen{
		{"Conversation (demo, watch, cloud, replay)", conv},
		{"Fleet (fleet, bare ohwatch)", titled([]string{"Move", "Rows", "Find and leave", "Steer the selected conversation"}, DefaultFleetKeyMap().FullHelp())},
		{"Compare (compare, m twice then D on the fleet, D in a fork)", titled([]string{"Move", "Differences", "App"}, DefaultCompareKeyMap().FullHelp())},
	}
}

func keyRows(bs []key.Binding) []KeyRow {
	out := make([]KeyRow, 0, len(bs))
	for _, b := range bs {
		h := b.Help()
		out = append(out, KeyRow{h.Key, h.Desc})
	}
	return out
}
