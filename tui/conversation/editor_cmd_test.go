package conversation

import (
	"reflect"
	"testing"
)

// TestEditorCommandTable: each editor gets the line the way it reads one,
// and the path is never an option or a command, whatever it is named.
func TestEditorCommandTable(t *testing.T) {
	for _, tc := range []struct {
		editor, path string
		want         []string
	}{
		{"", "/w/a.go", []string{"vi", "+3", "--", "/w/a.go"}},
		{"vim", "+:!touch pwned", []string{"vim", "+3", "--", "./+:!touch pwned"}},
		{"nvim", "-c:!id", []string{"nvim", "+3", "--", "./-c:!id"}},
		{"/usr/bin/nano", "a.go", []string{"/usr/bin/nano", "+3", "--", "./a.go"}},
		{"emacsclient -t", "-eval", []string{"emacsclient", "-t", "+3", "./-eval"}},
		{"kak", "/w/a.go", []string{"kak", "+3", "/w/a.go"}},
		{"code --wait", "-x", []string{"code", "--wait", "-g", "./-x:3"}},
		{"cursor", "/w/a.go", []string{"cursor", "-g", "/w/a.go:3"}},
		{"zed", "/w/a.go", []string{"zed", "/w/a.go:3"}},
		{"subl -w", "+x", []string{"subl", "-w", "./+x:3"}},
		{"hx", "/w/a.go", []string{"hx", "/w/a.go:3"}},
		{"myedit --wait", "-rf", []string{"myedit", "--wait", "./-rf"}},
	} {
		if got := editorCommand(tc.editor, tc.path, 3); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("editorCommand(%q, %q) = %q, want %q", tc.editor, tc.path, got, tc.want)
		}
	}
}
