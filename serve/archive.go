package serve

import (
	"slices"
	"strings"
)

// archiveFilterDetail answers an archive_filter the server does not know.
const archiveFilterDetail = "archive_filter: one of ACTIVE, ARCHIVED, ALL"

// archivedAt reports whether conversation c is archived under faults f.
func (c *conversation) archivedAt(f Faults) bool {
	return f.Archives && slices.Contains(f.Archived, c.id)
}

// archiveFilter keeps the conversations archive_filter asks for: on a
// server with archives the active ones by default (ACTIVE), the archived
// ones (ARCHIVED) or all (ALL); a server without archives ignores the
// parameter, as FastAPI ignores a query parameter a route does not take.
func (s *Server) archiveFilter(convs []*conversation, filter string) ([]*conversation, bool) {
	f := s.faults.get()
	if !f.Archives {
		return convs, true
	}
	var archived bool
	switch strings.ToUpper(filter) {
	case "", "ACTIVE":
	case "ARCHIVED":
		archived = true
	case "ALL":
		return convs, true
	default:
		return nil, false
	}
	out := make([]*conversation, 0, len(convs))
	for _, c := range convs {
		if c.archivedAt(f) == archived {
			out = append(out, c)
		}
	}
	return out, true
}

// parseArchive reads archive[=ID,ID…].
func parseArchive(value string, f *Faults) {
	f.Archives = true
	f.Archived = nil
	for _, id := range strings.Split(value, ",") {
		if id = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(id), "-", "")); id != "" {
			f.Archived = append(f.Archived, id)
		}
	}
}
