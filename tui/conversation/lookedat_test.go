package conversation

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/files"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// editLog is errorLog with a file edit of path at its end: an observation
// of a str_replace that made "b := 2" of "a := 1".
func editLog(t *testing.T, path string) *reducer.Log {
	t.Helper()
	log := tuitest.ErrorLog(t)
	p := strconv.Quote(path)
	log.Append(tuitest.Decode(t, []byte(`{"id":"e0000000-0000-4000-8000-0000000000e1","timestamp":"2026-01-27T03:56:40.000000","source":"environment","tool_name":"file_editor","tool_call_id":"toolu_ed1","action_id":"e0000000-0000-4000-8000-0000000000e0","observation":{"kind":"FileEditorObservation","content":[{"type":"text","text":"edited"}],"is_error":false,"command":"str_replace","path":`+p+`,"prev_exist":true,"old_content":"package x\n\nvar a := 1\n","new_content":"package x\n\nvar b := 2\n"},"kind":"ObservationEvent"}`)))
	return log
}

// clipboardOf runs cmd's commands and returns what they put on the
// clipboard with OSC 52.
func clipboardOf(cmd tea.Cmd) string {
	for _, msg := range runAll(cmd) {
		if v := reflect.ValueOf(msg); v.Kind() == reflect.String && strings.Contains(reflect.TypeOf(msg).Name(), "lipboard") {
			return v.String()
		}
	}
	return "(nothing)"
}

// TestCopyWhatIsShown: Y copies a terminal action's command, its
// observation's output, an edit's diff; y still copies the JSON.
func TestCopyWhatIsShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := editLog(t, "/nowhere/x.go")
		n := log.Len()
		at := func(id string) int {
			for i := range n {
				if log.Event(i).ID == "e0000000-0000-4000-8000-"+id {
					return i
				}
			}
			t.Fatalf("no event %s", id)
			return -1
		}
		m := newModel(Options{Log: log}, 120, 40)
		cases := []struct {
			at   int
			want string
		}{
			{at("000000000001"), "cat missing.txt"},
			{at("000000000002"), "cat: missing.txt: No such file or directory"},
			{n - 1, "--- a/nowhere/x.go\n+++ b/nowhere/x.go\n@@ -1,3 +1,3 @@\n package x\n \n-var a := 1\n+var b := 2\n"},
		}
		for _, c := range cases {
			m = jumpTo(t, m, tui.Ordinal(c.at))
			_, cmd := press(t, m, "Y")
			if got := clipboardOf(cmd); got != c.want {
				t.Errorf("Y on %d copied %q, want %q", c.at, got, c.want)
			}
		}
		m = jumpTo(t, m, tui.Ordinal(at("000000000001")))
		_, cmd := press(t, m, "y")
		if got := clipboardOf(cmd); !strings.HasPrefix(got, "{") {
			t.Errorf("y copied %q, not the JSON", got)
		}
	})
}

// TestEditChangedFile: E on an edit whose file is here finds the line the
// change begins and runs the editor there; on one whose file is not here
// the footer says so; on an event that changed nothing, that.
//
// It reads the file and line E found (editorFileMsg): they go to the
// editor's command line, which the screen never shows.
func TestEditChangedFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(path, []byte("// a header\npackage x\n\nvar b := 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newModel(Options{Log: editLog(t, path), Editor: "myedit --wait", OpenFile: files.OpenRegular}, 120, 40)
	m.moveTo(m.Log.Len() - 1)
	_, cmd := press(t, m, "E")
	msg, ok := cmd().(editorFileMsg)
	if !ok || msg.err != nil || msg.path != path || msg.line != 2 {
		t.Fatalf("E found %+v", msg)
	}
	if got := editorCommand(m.Opts.Editor, msg.path, msg.line); !reflect.DeepEqual(got, []string{"myedit", "--wait", path}) {
		t.Errorf("editor command %q", got)
	}
	if m.Update(msg) == nil {
		t.Error("no editor run")
	}

	m = newModel(Options{Log: editLog(t, "/no/such/workspace/x.go"), OpenFile: files.OpenRegular}, 120, 40)
	m.moveTo(m.Log.Len() - 1)
	_, cmd = press(t, m, "E")
	m.Update(cmd())
	if !strings.Contains(m.View(), "/no/such/workspace/x.go is not on this machine") {
		t.Errorf("the footer does not say the file is not here:\n%s", m.View())
	}
	m.moveTo(m.Log.Len() - 2)
	press(t, m, "E")
	if !strings.Contains(m.View(), "this event changed no file") {
		t.Errorf("E on no edit:\n%s", m.View())
	}
}
