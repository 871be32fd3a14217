package serve

import (
	"strings"

	"ohwatch/model"
)

// QualifiedKind returns the fully-qualified class name the REST kind filter
// expects for an event kind ("ActionEvent" →
// "openhands.sdk.event.llm_convertible.action.ActionEvent"), from the
// module model.Kinds names, or "" for a kind whose module is not known: the
// filter compares against the class name (protocol §9.3), so a bare
// "ActionEvent" matches nothing.
func QualifiedKind(kind string) string {
	if k := model.KindNamed(kind); k != nil && k.Module != "" {
		return k.Module + "." + kind
	}
	return ""
}

// kindMatches reports whether an event of kind matches the filter. Known
// kinds need their exact qualified name; a kind whose module is unknown
// matches any dotted name ending in it.
func kindMatches(kind, filter string) bool {
	if q := QualifiedKind(kind); q != "" {
		return q == filter
	}
	i := strings.LastIndexByte(filter, '.')
	return i > 0 && kind != "" && filter[i+1:] == kind
}
