package conversation

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// kindColumnLen is the width of the list's kind column: the longest group
// of model.Kinds fits.
const kindColumnLen = 8

// allKinds returns every short kind (model.Groups), in the kind filter's
// order.
func allKinds() []string { return model.Groups() }

// shortKind names an event's kind in a few letters for the kind column:
// its group in model.Kinds.
func shortKind(ev *model.Event) string { return model.GroupOf(ev) }

// isNoise reports whether a short kind is structural noise, hidden by the
// default filter (model.EventKind.Noise).
func isNoise(kind string) bool { return model.GroupIsNoise(kind) }

// isError reports whether an event is an error the list highlights with
// ✗: reducer.Failed, the definition the header counts and ] walks.
func isError(ev *model.Event) bool { return reducer.Failed(ev) }

// kindFilter decides which events the list shows. The noise filter and the
// kind picker combine: an event is shown when neither hides it.
type kindFilter struct {
	// hideNoise hides structural noise (on by default; F toggles it).
	hideNoise bool
	// picked are the kinds selected in the picker; empty means all.
	picked map[string]bool
	// invert shows the kinds NOT picked instead.
	invert bool
}

// defaultFilter hides noise and picks nothing.
func defaultFilter() kindFilter {
	return kindFilter{hideNoise: true, picked: map[string]bool{}}
}

// shows reports whether the filter lets a kind through.
func (f kindFilter) shows(kind string) bool {
	if f.hideNoise && isNoise(kind) {
		return false
	}
	if len(f.picked) == 0 {
		return true
	}
	return f.picked[kind] != f.invert
}

// groups returns the set of groups the filter lets through, by their
// position in model.Groups, for the log's index of kinds.
func (f kindFilter) groups() reducer.GroupSet {
	var set reducer.GroupSet
	for g, name := range groupNames {
		if f.shows(name) {
			set = set.With(g)
		}
	}
	return set
}

// groupNames is model.Groups, read once.
var groupNames = model.Groups()

// active reports whether the picker restricts anything.
func (f kindFilter) active() bool { return len(f.picked) > 0 }

// toggled returns a copy with kind picked or unpicked; the map is copied so
// an older Model value never sees the change.
func (f kindFilter) toggled(kind string) kindFilter {
	picked := make(map[string]bool, len(f.picked)+1)
	for k, v := range f.picked {
		picked[k] = v
	}
	if picked[kind] {
		delete(picked, kind)
	} else {
		picked[kind] = true
	}
	f.picked = picked
	return f
}

// label describes the filter for the list's title: "noise hidden",
// "kinds: Action,Obs", "not: Msg".
func (f kindFilter) label() string {
	s := ""
	if f.hideNoise {
		s = "noise hidden"
	}
	if f.active() {
		if s != "" {
			s += ", "
		}
		if f.invert {
			s += "not "
		}
		first := true
		for _, k := range allKinds() {
			if f.picked[k] {
				if !first {
					s += ","
				}
				s += k
				first = false
			}
		}
	}
	return s
}
