package cli

import (
	"fmt"

	"ohwatch/client/agentserver"
	"ohwatch/format"
)

// archivedNote says, for a server with archives (SDK #4994: search and
// count list the active conversations unless archive_filter asks for
// more), how many conversations are archived and whether they were
// listed; "" for a server without archives or when it cannot be told.
func archivedNote(l agentserver.Listing) string {
	switch {
	case !l.Archives && l.Archived <= 0, l.Archived < 0:
		return ""
	case l.ListedArchived:
		return fmt.Sprintf("%s archived, listed", format.Plural(l.Archived, "conversation"))
	case l.Archived == 0:
		return "no conversation archived"
	}
	return fmt.Sprintf("%s archived, not listed (--archived lists them)", format.Plural(l.Archived, "conversation"))
}
