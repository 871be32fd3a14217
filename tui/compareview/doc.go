// Package compareview is the compare screen: two runs' aligned steps
// side by side, each side's panes as of the cursor's row, aligned again
// off the UI as live sides grow.
//
// # In detail
//
// `session` opens it for `compare` (`RunCompare`); a fork's view opens it
// with `D` against its parent, the fleet table with `m` then `D`.
// `CompareOptions.SetCommon` takes the `tui.Common` of the view that
// opened it. A step's outcome (`compare.Steps`) and its detail name the
// result the log gives (`reducer.Log.ResultOf`), never one the screen
// looks for itself.
//
// The detail of a row is built as the inspector's view is: `enter` (and
// `]`/`[` inside the detail) shows the two steps' names and "rendering…"
// and returns a command (`compare_detail.go`) whose message is addressed
// to the screen; a message whose sequence number is not the open detail's
// is dropped. Its lines do not depend on the width, so a resize does not
// build them again.
//
// It imports `tui`, `tui/dialog`, `tui/text`, `compare`, `reducer`, `model`, `theme`,
// `format`, `internal/sanitize`.
package compareview
