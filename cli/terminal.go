package cli

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// stdoutIsTerminal reports whether stdout is a terminal: the TUI needs one,
// and headless output is chosen automatically otherwise.
func stdoutIsTerminal() bool { return isTerminal(os.Stdout) }

// isTerminal asks the terminal driver itself (isatty). A character device
// is not enough: /dev/null is one too, and a TUI drawn there would wait
// for a key nobody can see to press.
func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }
