package fleet

import (
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// SourceState is what a fleet knows of a source itself, beside its
// conversations: the connection state of its listing (a server that
// cannot be reached is retried) and its warnings. A source tells it in
// updates whose Ref has an empty ID.
type SourceState struct {
	Source    string
	Kind      model.SourceKind
	Conn      model.ConnState
	ConnKnown bool
	Warnings  int
	// LastWarning is the latest warning, sanitised.
	LastWarning string
}

// Label is the source as a column shows it.
func (s SourceState) Label() string {
	return SourceLabel(model.ConversationRef{Source: s.Source, Kind: s.Kind})
}

// Status is the state of the source's listing in a few words: the
// source's reason while it retries without counting attempts (a local
// root that does not exist: "does not exist (listed once created)"),
// else as ConnText words a row's ("reconnect #3", "lost").
func (s SourceState) Status() string {
	if s.Conn.Phase == model.PhaseReconnecting && s.Conn.Attempt == 0 && s.Conn.Reason != "" {
		return s.Conn.Reason
	}
	return ConnText(Row{Conn: s.Conn, ConnKnown: true})
}

// Troubled reports whether the source's listing is not live: it is being
// retried, or was given up.
func (s SourceState) Troubled() bool {
	return s.ConnKnown && (s.Conn.Phase == model.PhaseReconnecting || s.Conn.Phase == model.PhaseLost)
}

// Sources returns the state of every source that reported about itself,
// in order of first sight.
func (f *Fleet) Sources() []SourceState {
	out := make([]SourceState, len(f.sources))
	for i, s := range f.sources {
		out[i] = *s
	}
	return out
}

// applySource folds an update about a source itself.
func (f *Fleet) applySource(u *model.FleetUpdate) {
	key := sourceKey{u.Ref.Source, u.Ref.Kind}
	s, ok := f.sourceAt[key]
	if !ok {
		s = &SourceState{Source: strings.Clone(u.Ref.Source), Kind: u.Ref.Kind}
		if f.sourceAt == nil {
			f.sourceAt = map[sourceKey]*SourceState{}
		}
		f.sourceAt[key] = s
		f.sources = append(f.sources, s)
	}
	if c := u.Batch.Conn; c != nil {
		s.Conn, s.ConnKnown = *c, true
		s.Conn.Reason = strings.Clone(sanitize.Line(c.Reason))
	}
	if n := len(u.Batch.Warnings); n > 0 {
		s.Warnings += n
		s.LastWarning = strings.Clone(sanitize.Line(u.Batch.Warnings[n-1]))
	}
}

type sourceKey struct {
	source string
	kind   model.SourceKind
}
