package conversation

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/export"
	"ohwatch/format"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
)

// TestOneDefinitionOfError: the header's count, the rows drawn ✗, the
// events ] walks, the rows |failed keeps and state's errors are the same
// events (the demo has failed commands, which upstream does not mark
// is_error, beside errors that are).
func TestOneDefinitionOfError(t *testing.T) {
	t.Parallel()
	log := demoLog(t, -1)
	var want []int
	for i := range log.Len() {
		ev := log.Event(i)
		if reducer.Failed(&ev) {
			want = append(want, i)
		}
	}
	if len(want) < 2 {
		t.Fatalf("the demo has %d errors: no case to compare", len(want))
	}
	m := newModel(Options{Log: log, Title: "errors"}, 160, 48)
	m, _ = press(t, m, "G")
	if out := screen(m); !strings.Contains(out, format.Plural(len(want), "error")) {
		t.Fatalf("the header does not count %d errors:\n%s", len(want), out)
	}
	if doc := export.StateOn(log, log.HeadPath(), -1, nil, true); doc.Errors != len(want) {
		t.Fatalf("state counts %d errors, the list %d", doc.Errors, len(want))
	}
	// ] from the start visits exactly the errors, each row drawn ✗.
	m, _ = press(t, m, "g")
	var walked []int
	errGlyph := theme.New(true, colorprofile.NoTTY).Glyphs.Error
	for range len(want) + 1 {
		before := cursorIndex(t, screen(m))
		m, _ = press(t, m, "]")
		at := cursorIndex(t, screen(m))
		if at == before {
			break
		}
		walked = append(walked, at)
		if row := selectedRow(screen(m)); !strings.Contains(row, " "+tui.Ordinal(at)+" ") || !strings.Contains(row, errGlyph) {
			t.Fatalf("] stopped at %s, not drawn ✗: %q", tui.Ordinal(at), row)
		}
	}
	if !slices.Equal(walked, want) {
		t.Fatalf("] walks %v, the errors are %v", walked, want)
	}
	// |failed keeps exactly them.
	m, _ = press(t, m, "|")
	m = typeText(t, m, "failed")
	m, _ = press(t, m, "enter")
	kept := narrowedRows(m)
	if !slices.Equal(kept, want) {
		t.Fatalf("|failed keeps %v, the errors are %v", kept, want)
	}
}
