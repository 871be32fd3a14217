package model

// NestedKind returns the kind of an event's nested action or observation
// ("TerminalAction", "MCPToolObservation"), or "" for other events and for
// an action that could not be parsed.
func NestedKind(ev Event) string {
	switch b := ev.Body.(type) {
	case *Action:
		return b.ActionKind
	case *Observation:
		return b.ObservationKind
	}
	return ""
}

// KindLabel is the kind shown in lists and filters: the event kind, with the
// nested kind for actions and observations ("ActionEvent/TerminalAction").
func KindLabel(ev Event) string {
	if n := NestedKind(ev); n != "" {
		return ev.Kind + "/" + n
	}
	return ev.Kind
}

// IsUnknown reports whether an event's kind was not recognised or its
// fields did not fit it; the reason is "" for an unrecognised kind.
func IsUnknown(ev Event) (reason string, unknown bool) {
	if u, ok := ev.Body.(*Unknown); ok {
		return u.Reason, true
	}
	return "", false
}
