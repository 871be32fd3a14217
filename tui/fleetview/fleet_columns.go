package fleetview

import (
	"slices"

	"ohwatch/fleet"
)

// shows reports whether the configuration keeps column c (FleetOptions.
// Columns).
func (f *Fleet) shows(c fleet.Column) bool {
	return f.opts.Columns == nil || slices.Contains(f.opts.Columns, c)
}

// anyRuntime reports whether a row's server says something of its
// runtime (a Docker-runtime agent-server, SDK 1.48+): the RUNTIME column
// is shown then only, so other fleets keep their room.
func (f *Fleet) anyRuntime() bool {
	for _, r := range f.rows {
		if r.Runtime.Words() != "" {
			return true
		}
	}
	return false
}
