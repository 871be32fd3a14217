package conversation

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// colourModel builds a model drawn in colour under profile p on a dark
// background (the default when the terminal does not answer).
func colourModel(opts Options, p colorprofile.Profile, w, h int) *Conversation {
	opts.Profile = p
	opts.NoColor = p <= colorprofile.ASCII
	m := NewConversation(opts)
	m, _ = send(m, tuitest.WindowSize(w, h))
	return m
}

// terminalView is what the terminal receives for the model's frame: the
// view as the renderer converts it to the profile.
func terminalView(m *Conversation, p colorprofile.Profile) string {
	var b bytes.Buffer
	w := colorprofile.NewWriter(&b, nil)
	w.Profile = p
	_, _ = w.WriteString(screen(m))
	return b.String()
}

// drawCells draws text into a w×h cell buffer as a terminal would, with
// the given width model.
func drawCells(text string, w, h int, method ansi.Method) uv.ScreenBuffer {
	buf := uv.NewScreenBuffer(w, h)
	buf.Method = method
	uv.NewStyledString(text).Draw(buf, buf.Bounds())
	return buf
}

// findCell returns the first cell of the first occurrence of needle on the
// screen (searching from row from on). A needle "status |error" names the
// cell after the bar, found in its context.
func findCell(t *testing.T, buf uv.ScreenBuffer, needle string, from int) *uv.Cell {
	t.Helper()
	context, needle, ok := strings.Cut(needle, "|")
	if !ok {
		context, needle = "", context
	}
	b := buf.Bounds()
	for y := from; y < b.Max.Y; y++ {
		var text strings.Builder
		var xs []int
		for x := 0; x < b.Max.X; x++ {
			c := buf.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			for range len(c.Content) {
				xs = append(xs, x)
			}
			text.WriteString(c.Content)
		}
		if k := strings.Index(text.String(), context+needle); k >= 0 {
			return buf.CellAt(xs[k+len(context)], y)
		}
	}
	t.Fatalf("%q is not on the screen", context+needle)
	return nil
}

// sgr spells a foreground colour as its SGR parameters.
func sgr(c color.Color) string {
	switch c := c.(type) {
	case nil:
		return ""
	case ansi.BasicColor:
		if c < 8 {
			return fmt.Sprint(30 + int(c))
		}
		return fmt.Sprint(90 + int(c) - 8)
	case ansi.IndexedColor:
		return fmt.Sprintf("38;5;%d", int(c))
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// hue names the signal a colour carries: red, yellow, green or cyan/blue
// (one class, both mean running/live), or grey.
func hue(c color.Color) string {
	switch c := c.(type) {
	case nil:
		return "none"
	case ansi.BasicColor:
		return [...]string{"grey", "red", "green", "yellow", "blue", "magenta", "blue", "grey"}[c%8]
	case ansi.IndexedColor:
		if c < 16 {
			return hue(ansi.BasicColor(c))
		}
	}
	r8, g8, b8, _ := c.RGBA()
	r, g, b := float64(r8>>8)/255, float64(g8>>8)/255, float64(b8>>8)/255
	hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if hi == 0 || (hi-lo)/hi < 0.25 {
		return "grey"
	}
	var h float64
	switch hi {
	case r:
		h = math.Mod((g-b)/(hi-lo), 6)
	case g:
		h = (b-r)/(hi-lo) + 2
	default:
		h = (r-g)/(hi-lo) + 4
	}
	h = math.Mod(h*60+360, 360)
	switch {
	case h < 20 || h >= 330:
		return "red"
	case h < 70:
		return "yellow"
	case h < 160:
		return "green"
	case h < 260:
		return "blue"
	}
	return "magenta"
}

// TestSignalsKeepTheirColourOnEveryProfile draws a recording with errors
// and a conversation waiting for a HIGH risk action under each profile, as
// the terminal receives them, and checks the colour of the cells that
// carry a signal: errors and HIGH red, finished green, waiting and a
// provisional finish yellow, running cyan or blue. Without colour, the
// text and glyphs still tell them apart.
func TestSignalsKeepTheirColourOnEveryProfile(t *testing.T) {
	t.Parallel()
	type cellWant struct {
		needle string
		from   int // the first row to search
		hue    string
	}
	screens := []struct {
		name  string
		build func(p colorprofile.Profile) *Conversation
		cells []cellWant
	}{
		{"errors", func(p colorprofile.Profile) *Conversation {
			m := colourModel(Options{Log: tuitest.ErrorLog(t), Title: "errors", Source: "replay ./errors"}, p, 160, 48)
			m, _ = press(t, m, "]", "]", "]")
			return m
		}, []cellWant{
			{"status |error", 1, "red"}, {"3 errors", 1, "red"}, {"✗Obs", 2, "red"}, {"✗Error", 2, "red"}, {"✗", 46, "red"},
			{"✓ finished", 2, "green"}, {"running", 2, "blue"},
		}},
		{"waiting", func(p colorprofile.Profile) *Conversation {
			m := colourModel(Options{Log: tuitest.WaitingLog(t), Live: true, Feed: make(chan model.Batch), Title: "confirmation mode",
				Source: "ws 127.0.0.1:8000", Controls: &tuitest.Controls{}}, p, 160, 48)
			m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
			return m
		}, []cellWant{{"waiting_for_confirmation ·", 1, "yellow"}, {"HIGH", 2, "red"}}},
		{"provisional", func(p colorprofile.Profile) *Conversation {
			// Live: at the end of a recording every status is final.
			log := tuitest.Recorded(t, fixtures.Echo)
			log.Append(tuitest.Decode(t, []byte(tuitest.StateUpdate("f1", "2026-01-27T03:56:25.000000", "execution_status", "finished"))))
			m := colourModel(Options{Log: log, Live: true, Feed: make(chan model.Batch)}, p, 160, 48)
			m, _ = send(m, BatchMsg{Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
			return m
		}, []cellWant{{"finished?", 1, "yellow"}}},
	}
	for _, sc := range screens {
		for _, p := range tuitest.Profiles {
			t.Run(sc.name+"_"+p.String(), func(t *testing.T) {
				m := sc.build(p)
				buf := drawCells(terminalView(m, p), 160, 48, ansi.WcWidth)
				for _, c := range sc.cells {
					cell := findCell(t, buf, c.needle, c.from)
					fg := cell.Style.Fg
					if p <= colorprofile.ASCII {
						if fg != nil {
							t.Errorf("%q has colour %s without colour", c.needle, sgr(fg))
						}
						continue
					}
					if got := hue(fg); got != c.hue {
						t.Errorf("%q is drawn in SGR %s (%s), want %s", c.needle, sgr(fg), got, c.hue)
					}
					if p == colorprofile.ANSI {
						if _, ok := fg.(ansi.BasicColor); !ok {
							t.Errorf("%q is drawn in SGR %s, not one of the terminal's 16 colours", c.needle, sgr(fg))
						}
					}
				}
			})
		}
	}
}

// TestColourGoldens keeps the frames a terminal receives under every
// profile (go test ./tui/conversation -update rewrites them).
func TestColourGoldens(t *testing.T) {
	t.Parallel()
	for _, src := range tuitest.Sources {
		for _, p := range tuitest.Profiles {
			for _, sc := range goldenScenariosOn(src.Load) {
				if sc.name != "error" && sc.name != "waiting_for_confirmation" {
					continue
				}
				t.Run(src.Prefix+sc.name+"_"+p.String(), func(t *testing.T) {
					m := sc.build(t, 80, 24)
					c := tui.NewColours(theme.Auto, p, p <= colorprofile.ASCII)
					m.colour, m.styles = c, c.Styles()
					m.cache.clearRows()
					golden.RequireEqual(t, terminalView(m, p))
				})
			}
		}
	}
}

// TestThemeChoice: with the background unknown the dark palette applies;
// auto follows the terminal's answer, dark and light ignore it; NO_COLOR
// keeps colour off whatever profile the terminal reports later.
func TestThemeChoice(t *testing.T) {
	t.Parallel()
	dark, light := theme.New(true, colorprofile.TrueColor), theme.New(false, colorprofile.TrueColor)
	lightBG := tea.BackgroundColorMsg{Color: whiteColor{}}
	cases := []struct {
		mode theme.Mode
		msg  tea.Msg
		want theme.Styles
	}{
		{theme.Auto, nil, dark},
		{theme.Auto, lightBG, light},
		{theme.DarkMode, lightBG, dark},
		{theme.LightMode, tea.BackgroundColorMsg{Color: blackColor{}}, light},
	}
	for _, c := range cases {
		m := NewConversation(Options{Log: tuitest.Generated(t, 10, 1), Theme: c.mode, Profile: colorprofile.TrueColor})
		if c.msg != nil {
			m, _ = send(m, c.msg)
		}
		if m.styles.Text.GetForeground() != c.want.Text.GetForeground() {
			t.Errorf("%v after %v: text %v, want %v", c.mode, c.msg, m.styles.Text.GetForeground(), c.want.Text.GetForeground())
		}
		if (c.mode == theme.Auto) != (m.Init() != nil && m.colour.Init() != nil) {
			t.Errorf("%v: asks for the background: %v", c.mode, m.colour.Init() != nil)
		}
	}
	m := NewConversation(Options{Log: tuitest.Generated(t, 10, 1), NoColor: true})
	m, _ = send(m, tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	if !m.styles.NoColor {
		t.Error("a profile report brought colour back under NO_COLOR")
	}
	m = NewConversation(Options{Log: tuitest.Generated(t, 10, 1), Profile: colorprofile.TrueColor})
	m, _ = send(m, tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	if m.styles.Profile != colorprofile.ANSI256 {
		t.Errorf("profile report ignored: styles for %v", m.styles.Profile)
	}
}
