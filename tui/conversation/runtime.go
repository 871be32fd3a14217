package conversation

import (
	"ohwatch/internal/sanitize"
)

// runtimeBadge is what the server says of the conversation's runtime and
// archive (model.Runtime: GET /{id}/runtime, SDK 1.48; archived_at),
// styled, after the connection's word; "" when it says nothing. A missing
// runtime is a warning, not an error: the conversation has neither failed
// nor ended.
func (m *Conversation) runtimeBadge() string {
	words := sanitize.Line(m.runtime.Words())
	if words == "" {
		return ""
	}
	s := m.styles
	sep := s.Muted.Render(s.Glyphs.Separator)
	switch {
	case m.runtime.Status == "error":
		return sep + s.Error.Render(words)
	case m.runtime.Troubled() || !m.runtime.Archived.IsZero():
		return sep + s.Warn.Render(words)
	}
	return sep + s.Muted.Render(words)
}
