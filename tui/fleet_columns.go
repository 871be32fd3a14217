package tui

import (
	"slices"

	"ohwatch/fleet"
)

// shows reports whether the configuration keeps column c (FleetOptions.
// Columns).
func (f *Fleet) shows(c fleet.Column) bool {
	return f.opts.Columns == nil || slices.Contains(f.opts.Columns, c)
}
