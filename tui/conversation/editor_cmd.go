package conversation

import (
	"path/filepath"
	"strings"
)

// How each editor is told the line: one table, held by a test. The path
// comes from an agent's event, so it is never read as an option or a
// command: a relative path is written ./PATH (an absolute one starts with
// /), so a file named "+:!cmd" or "-c…" is a file name to every editor,
// and vi-likes get "--" before it besides. (charmbracelet/x/editor was
// considered: it reads $EDITOR itself, knows neither zed nor subl, and
// passes the path as it is.)

// lineStyle is how an editor takes a line.
type lineStyle int

const (
	lineNone  lineStyle = iota // the path alone: an editor not in the table
	linePlus                   // +LINE PATH
	lineColon                  // PATH:LINE
	lineGoto                   // -g PATH:LINE
)

// editorLines is the table, by the command's base name.
var editorLines = map[string]lineStyle{
	"vi": linePlus, "vim": linePlus, "nvim": linePlus, "view": linePlus, "gvim": linePlus, "mvim": linePlus,
	"nano": linePlus, "emacs": linePlus, "emacsclient": linePlus, "kak": linePlus, "micro": linePlus,
	"joe": linePlus, "gedit": linePlus, "mg": linePlus,
	"code": lineGoto, "code-insiders": lineGoto, "codium": lineGoto, "cursor": lineGoto, "windsurf": lineGoto,
	"zed": lineColon, "subl": lineColon, "sublime_text": lineColon, "hx": lineColon, "helix": lineColon,
}

// endsOptions are the editors known to read "--" as the end of options.
var endsOptions = map[string]bool{"vi": true, "vim": true, "nvim": true, "view": true, "gvim": true, "mvim": true, "nano": true}

// editorCommand is the editor's command line for path at line. An empty
// editor is vi.
func editorCommand(editor, path string, line int) []string {
	args := strings.Fields(editor)
	if len(args) == 0 {
		args = []string{"vi"}
	}
	name := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	path = plainPath(path)
	at := path + ":" + Itoa(max(line, 1))
	switch editorLines[name] {
	case linePlus:
		args = append(args, "+"+Itoa(max(line, 1)))
	case lineColon:
		return append(args, at)
	case lineGoto:
		return append(args, "-g", at)
	}
	if endsOptions[name] {
		args = append(args, "--")
	}
	return append(args, path)
}

// plainPath writes path so no program reads it as an option or a command:
// absolute, or ./ before a relative one.
func plainPath(path string) string {
	if filepath.IsAbs(path) || strings.HasPrefix(path, "./") {
		return path
	}
	return "./" + path
}
