package tui

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/theme"
)

// BrowseRow is one conversation offered by the browser, as `ohwatch ls`
// lists it.
type BrowseRow struct {
	ID     string
	Title  string
	Status string
	// Verdict is the status as every surface words it (reducer.Verdict),
	// "finished (recorded, inferred)"; the status column shows it when
	// there is room, else Status.
	Verdict string
	// Events is the number of events; negative when unknown.
	Events int
	// Cost is the cost as the listing prints it ("$1.23", "unknown", "-").
	Cost         string
	LastActivity time.Time
	// Path is where the conversation is on disk; empty for a server's.
	Path string
}

// BrowseOptions is what the browser shows.
type BrowseOptions struct {
	Rows []BrowseRow
	// Where names what is listed (a root directory, a server URL).
	Where string
	// NoColor draws without colours (NO_COLOR).
	NoColor bool
	// Theme and Profile are as in Options.
	Theme   theme.Mode
	Profile colorprofile.Profile
}

// Browse shows the conversations as a sortable, filterable table until the
// user picks one (enter) or leaves (q, esc). It returns the chosen row's
// Path, or its ID when it has no path, and "" when the user left without
// choosing or ctx ended.
func Browse(ctx context.Context, opts BrowseOptions) (string, error) {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	popts := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}, programColours(&opts.Profile)...)
	p := tea.NewProgram(newBrowser(opts), popts...)
	final, err := p.Run()
	if err := runError(ctx, err); err != nil {
		return "", err
	}
	if b, ok := final.(browser); ok {
		return b.chosen, nil
	}
	return "", nil
}

// browseSort is the order of the browser's rows; s cycles through them.
type browseSort int

const (
	sortActivity browseSort = iota
	sortCost
	sortEvents
	sortStatus
	sortCount
)

// String names the order for the browser's heading.
func (s browseSort) String() string {
	return [...]string{"last activity", "cost", "events", "status"}[s]
}

// browser is the Bubble Tea model of Browse: the rows, the order and
// filter that select and arrange them, and the cursor.
type browser struct {
	opts   BrowseOptions
	styles theme.Styles
	colour colours
	width  int
	height int

	sortBy    browseSort
	filter    string // the filter line's text, as the rows are filtered by it
	filtering bool   // the filter line takes the keys
	in        textinput.Model
	// shown are the indices into opts.Rows that pass the filter, in the
	// current order.
	shown  []int
	cursor int // position in shown
	top    int // first position of shown on the screen

	chosen string
}

// newBrowser builds the browser model over opts.Rows.
func newBrowser(opts BrowseOptions) browser {
	c := newColours(opts.Theme, opts.Profile, opts.NoColor)
	b := browser{opts: opts, colour: c, styles: c.styles(), width: 80, height: 24}
	b.arrange()
	return b
}

// Init asks the terminal for its background colour.
func (b browser) Init() tea.Cmd {
	return b.colour.init()
}

// Update implements tea.Model.
func (b browser) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.width, b.height = msg.Width, msg.Height
		b.scrollToCursor()
	case tea.ModeReportMsg:
		if unicodeCoreReport(msg) {
			setCellMethod(ansi.GraphemeWidth)
		}
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		if b.colour.update(msg) {
			b.styles = b.colour.styles()
		}
	case tea.KeyPressMsg:
		return b.key(msg)
	case tea.PasteMsg:
		if b.filtering {
			return b.filterKey(msg), nil
		}
	}
	return b, nil
}

// browseKeyMap is the browser's keys: the conversation view's bindings
// for what the two share (moving, /, enter, esc, q, ctrl+c), and s to
// sort, so a key means the same in both.
type browseKeyMap struct {
	KeyMap
	Sort key.Binding
}

// browserKeys is the browser's key map.
var browserKeys = browseKeyMap{
	KeyMap: DefaultKeyMap(),
	Sort:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
}

// key answers a key press: the filter line's editing keys while it is
// open, the browser's keys otherwise.
func (b browser) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := browserKeys
	if key.Matches(msg, k.Interrupt) {
		b.chosen = ""
		return b, tea.Interrupt
	}
	if b.filtering {
		return b.filterKey(msg), nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		b.chosen = ""
		return b, tea.Quit
	case key.Matches(msg, k.Back):
		if b.filter != "" {
			b.filter = ""
			b.arrange()
			return b, nil
		}
		b.chosen = ""
		return b, tea.Quit
	case key.Matches(msg, k.Inspect):
		if len(b.shown) == 0 {
			return b, nil
		}
		row := b.opts.Rows[b.shown[b.cursor]]
		b.chosen = row.Path
		if b.chosen == "" {
			b.chosen = row.ID
		}
		return b, tea.Quit
	case key.Matches(msg, k.Down):
		b.move(1)
	case key.Matches(msg, k.Up):
		b.move(-1)
	case key.Matches(msg, k.Top):
		b.move(-len(b.shown))
	case key.Matches(msg, k.Bottom):
		b.move(len(b.shown))
	case key.Matches(msg, k.HalfDown, k.PageDown):
		b.move(max(b.listHeight()/2, 1))
	case key.Matches(msg, k.HalfUp, k.PageUp):
		b.move(-max(b.listHeight()/2, 1))
	case key.Matches(msg, k.Search):
		b.filtering = true
		b.in = newTextInput()
		b.in.SetValue(b.filter)
		b.in.CursorEnd()
	case key.Matches(msg, k.Sort):
		b.sortBy = (b.sortBy + 1) % sortCount
		b.arrange()
	}
	return b, nil
}

// filterKey edits the filter line (a key or a paste); the table follows
// every change.
func (b browser) filterKey(msg tea.Msg) browser {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, browserKeys.Submit):
			b.filtering = false
			return b
		case key.Matches(k, browserKeys.Back):
			b.filtering, b.filter = false, ""
			b.arrange()
			return b
		}
	}
	var changed bool
	if b.in, changed = editInput(b.in, msg); changed {
		b.filter = b.in.Value()
		b.arrange()
	}
	return b
}

// move shifts the cursor by n rows, stopping at either end.
func (b *browser) move(n int) {
	b.cursor = max(0, min(b.cursor+n, len(b.shown)-1))
	b.scrollToCursor()
}

// listHeight is the number of table rows on the screen: the heading, the
// column names and the footer take three lines.
func (b browser) listHeight() int { return max(b.height-3, 1) }

// scrollToCursor keeps the cursor's row inside the window.
func (b *browser) scrollToCursor() {
	h := b.listHeight()
	switch {
	case b.cursor < b.top:
		b.top = b.cursor
	case b.cursor >= b.top+h:
		b.top = b.cursor - h + 1
	}
	b.top = max(0, min(b.top, max(len(b.shown)-h, 0)))
}

// arrange recomputes the shown rows after the filter or the order
// changed, keeping the cursor on the same conversation when it is still
// shown.
func (b *browser) arrange() {
	keep := -1
	if b.cursor >= 0 && b.cursor < len(b.shown) {
		keep = b.shown[b.cursor]
	}
	rows := b.opts.Rows
	shown := make([]int, 0, len(rows))
	needle := strings.ToLower(b.filter)
	for i, r := range rows {
		if needle == "" || matchesRow(r, needle) {
			shown = append(shown, i)
		}
	}
	slices.SortStableFunc(shown, func(x, y int) int { return compareRows(rows[x], rows[y], b.sortBy) })
	b.shown = shown
	b.cursor = 0
	if k := slices.Index(shown, keep); k >= 0 {
		b.cursor = k
	}
	b.scrollToCursor()
}

// matchesRow reports whether a row's id, title, status or path contains
// the lower-case needle, in any case.
func matchesRow(r BrowseRow, needle string) bool {
	for _, s := range []string{r.ID, r.Title, r.Status, r.Verdict, r.Path} {
		if strings.Contains(strings.ToLower(s), needle) {
			return true
		}
	}
	return false
}

// compareRows orders two rows by key, most interesting first: the latest
// activity, the highest cost, the most events; status alphabetically.
// Ties, and unknown values, fall back to the latest activity.
func compareRows(x, y BrowseRow, by browseSort) int {
	byTime := func() int { return y.LastActivity.Compare(x.LastActivity) }
	var c int
	switch by {
	case sortCost:
		c = compareDesc(costValue(x.Cost), costValue(y.Cost))
	case sortEvents:
		c = compareDesc(float64(x.Events), float64(y.Events))
	case sortStatus:
		c = strings.Compare(statusKey(x.Status), statusKey(y.Status))
	}
	if c != 0 {
		return c
	}
	return byTime()
}

// compareDesc orders a before b when a is larger.
func compareDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// costValue reads a listed cost ("$1.23") as dollars; an unknown cost is
// below every known one.
func costValue(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "$"), 64)
	if err != nil {
		return -1
	}
	return v
}

// statusKey sorts rows without a status last.
func statusKey(s string) string {
	if s == "" || s == "-" {
		return "\uffff"
	}
	return s
}

// View implements tea.Model.
func (b browser) View() tea.View {
	v := tea.NewView(b.render())
	v.AltScreen = true
	v.WindowTitle = "ohwatch"
	return v
}
