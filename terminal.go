package main

import "os"

// stdoutIsTerminal reports whether stdout is a character device: the TUI
// needs a terminal, and headless output is chosen automatically otherwise.
func stdoutIsTerminal() bool {
	fi, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}
