package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/sanitize"
	"ohwatch/theme"
	"ohwatch/tui/text"
)

// HelpPager is how the key reference is read, the same on every screen
// (conversation, fleet, compare): it scrolls, says where it is, and "/"
// finds a key. Only esc, ? and q close it: every other key is the
// reader's, so a g or a Z pressed to scroll or to look something up is
// never taken as the action it names underneath.
type HelpPager struct {
	Scroll int
	// finding is set while the "/" field is open; query is what it holds
	// (kept once entered, for n and N).
	finding bool
	query   string
	// Hit is the line the last find landed on; n and N go on from it.
	Hit int
	// note says what the last key did when that is not visible: no key
	// matched, the find wrapped, a key that only closes the help.
	note string
}

// PagerKeys are the keys the help reads with, from the screen's own map
// so that a rebound j or G scrolls the help too.
type PagerKeys struct {
	Down, Up, PageDown, PageUp, Top, Bottom key.Binding
	Close                                   []key.Binding
}

// helpReadKeys are the keys the help always understands besides the
// screen's moves: "/" finds, n and N find again.
var (
	helpFind = key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "find a key"))
	helpNext = key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/previous found"))
	helpPrev = key.NewBinding(key.WithKeys("N"))
)

// Key answers a key while the help is open: lines are everything the
// help shows, rows how many of them fit. It reports whether the help
// closed.
func (p *HelpPager) Key(msg tea.KeyPressMsg, k PagerKeys, lines []string, rows int) bool {
	p.note = ""
	limit := max(len(lines)-rows, 0)
	if p.finding {
		p.findKey(msg, lines, limit)
		return false
	}
	page := max(rows-1, 1)
	switch {
	case key.Matches(msg, k.Close...):
		*p = HelpPager{}
		return true
	case key.Matches(msg, helpFind):
		p.finding, p.query = true, ""
	case key.Matches(msg, helpNext) && p.query != "":
		p.find(lines, limit, p.Hit+1, true)
	case key.Matches(msg, helpPrev) && p.query != "":
		p.find(lines, limit, p.Hit-1, false)
	case key.Matches(msg, k.Down):
		p.Scroll++
	case key.Matches(msg, k.Up):
		p.Scroll--
	case key.Matches(msg, k.PageDown):
		p.Scroll += page
	case key.Matches(msg, k.PageUp):
		p.Scroll -= page
	case key.Matches(msg, k.Top):
		p.Scroll = 0
	case key.Matches(msg, k.Bottom):
		p.Scroll = limit
	default:
		p.note = "esc, ? or q closes the help; / finds a key"
	}
	p.Scroll = max(0, min(p.Scroll, limit))
	return false
}

// findKey edits the "/" field: each key typed finds again from the top
// of what is shown, enter keeps the query (n and N go on with it), esc
// drops it.
func (p *HelpPager) findKey(msg tea.KeyPressMsg, lines []string, limit int) {
	switch msg.String() {
	case "esc":
		p.finding, p.query = false, ""
		return
	case "enter":
		p.finding = false
		return
	case "backspace":
		if r := []rune(p.query); len(r) > 0 {
			p.query = string(r[:len(r)-1])
		}
	default:
		if msg.Text == "" {
			return
		}
		p.query += sanitize.Line(msg.Text)
	}
	if p.query != "" {
		p.find(lines, limit, p.Scroll, true)
	}
}

// find scrolls to the first line at or after from (forward) or at or
// before it that holds the query, whatever its case, wrapping around
// once and saying so.
func (p *HelpPager) find(lines []string, limit, from int, forward bool) {
	q := strings.ToLower(p.query)
	n := len(lines)
	if n == 0 {
		return
	}
	from = (from%n + n) % n
	for k := 0; k < n; k++ {
		i := from + k
		if !forward {
			i = from - k
		}
		wrapped := i >= n || i < 0
		i = (i%n + n) % n
		if strings.Contains(strings.ToLower(ansi.Strip(lines[i])), q) {
			p.Scroll, p.Hit = max(0, min(i, limit)), i
			if wrapped {
				if forward {
					p.note = "found again from the top"
				} else {
					p.note = "found again from the bottom"
				}
			}
			return
		}
	}
	p.note = "no key matches “" + p.query + "”"
}

// View draws the help: a title line that says where the reader is and
// how to read on, then the lines from the scroll offset, exactly w×h.
func (p *HelpPager) View(s *theme.Styles, cells text.Cells, title string, lines []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	rows := max(h-1, 1)
	scroll := max(0, min(p.Scroll, len(lines)-rows))
	shown := lines[scroll:min(scroll+rows, len(lines))]
	var hint string
	switch {
	case p.finding:
		hint = "  find: " + p.query + "█  (enter keeps, esc drops)"
	case len(lines) > rows:
		hint = "  " + strconv.Itoa(scroll+1) + "-" + strconv.Itoa(scroll+len(shown)) + " of " + strconv.Itoa(len(lines)) +
			" · j/k g/G scroll · / find · esc closes"
	default:
		hint = "  / find · esc or ? closes"
	}
	if p.note != "" && !p.finding {
		hint = "  " + p.note
	} else if p.note != "" {
		hint += " · " + p.note
	}
	head := title + s.Muted.Render(hint)
	return cells.Block(head+"\n"+strings.Join(shown, "\n"), w, h)
}

// JoinBindings is one binding answering the keys of all of bs (page down
// is pgdn and ctrl+d in the help).
func JoinBindings(bs ...key.Binding) key.Binding {
	var keys []string
	for _, b := range bs {
		if b.Enabled() {
			keys = append(keys, b.Keys()...)
		}
	}
	return key.NewBinding(key.WithKeys(keys...))
}
