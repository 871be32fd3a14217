// Package fleetview is the fleet table: every conversation of a fleet,
// one row each, streamed from its sources, with its controls and guards.
// It opens a row's conversation (tui/conversation) and compares two
// marked rows (tui/compareview) by pushing their screens.
//
// # In detail
//
// `RunFleet(ctx, opts)` shows the table at the router's root;
// `FleetOptions.Common` carries the `tui.Common` every view it opens
// gets. A conversation opened from the table is a pushed view released
// when it is popped (its session's context cancelled, its feed ended, its
// log garbage); the row keeps its derived state, and opening it again
// loads its events again. `m` marks a row and `D` compares two marked
// ones; a row's sub-conversations come from their parent links.
//
// The controls (`fleet_steer.go`) are the selected row's (`p` `R` `I` `M`
// `C`) and `P`, which pauses every running row shown. The guards (`fleet_guard.go`) are the
// header's armed guards, a trip's banner and a stopped row's mark.
//
// The mouse (`fleet_mouse.go`) moves the cursor with the wheel, selects a
// clicked row, opens the selected row on a second click (so a double
// click opens) and sorts by a clicked column name, all through the same
// moves as the keys; it is not answered while a question, the filter line
// or the help is open.
//
// The key reference (`?`, a `tui.Help`) and the question about a paused
// sandbox (`fleet_resume.go`) are dialogs on the table's overlay
// (tui/dialog): the reference over the whole screen, the question as the
// footer; the answer comes back in a message that starts the open.
//
// Rows that share a title (reruns) are told apart by their start and
// short id (`fleet_reruns.go`): `fleet.Fleet` counts the conversations
// per title as titles change (`SameTitle`), so a frame asks a map per row
// shown, never scans the rows.
//
// It imports `tui`, `tui/dialog`, `tui/conversation`, `tui/compareview`,
// `tui/text`, `fleet`, `guard`, `model`, `theme`, `format`,
// `internal/sanitize`.
package fleetview
