package format

// Provenance names where a status came from, in the words the headless
// lines use: the reducer's "state_update" is the protocol's "per-field".
func Provenance(source string) string {
	switch source {
	case "state_update":
		return "per-field"
	case "":
		return "none"
	}
	return source
}

// Status prints a status in a short column: "finished?" for a finished
// that is still provisional (a Stop hook can revert a per-field finished),
// "unknown" when there is none.
func Status(status string, final bool) string {
	if status == "" {
		return Unknown
	}
	if status == "finished" && !final {
		return status + "?"
	}
	return status
}

// Verdict prints a status with where it came from and how far it can be
// trusted, the same on every surface:
//
//	finished (recorded, inferred)       a recording that ended: its last status is final
//	finished (confirmed, full_state)    live, confirmed by a snapshot
//	finished? (provisional, per-field)  live, a Stop hook can still revert it
//	running (per-field)                 live, not terminal
func Verdict(status, source string, confirmed, recorded bool) string {
	if status == "" {
		return Unknown
	}
	prov := Provenance(source)
	switch {
	case recorded:
		return status + " (recorded, " + prov + ")"
	case confirmed:
		return status + " (confirmed, " + prov + ")"
	case status == "finished":
		return Status(status, false) + " (provisional, " + prov + ")"
	}
	return status + " (" + prov + ")"
}
