package format

import "strconv"

// Event is how a person reads an event's place: "#1" for the first event
// of a log (index 0). Every surface that shows a number a person may type
// back (the TUI's rows and `:N`, the headless lines, `state`, guards,
// compare, the exports) numbers events through it, so a number read
// anywhere finds the same event everywhere. JSON keeps the 0-based
// "index" beside "n", this number without its "#".
func Event(index int) string { return "#" + strconv.Itoa(index+1) }

// EventN is Event's number without the "#": the "n" of a JSON line.
func EventN(index int) int { return index + 1 }
