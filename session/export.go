package session

import (
	"io"
	"slices"
	"strings"

	"ohwatch/client/files"
	"ohwatch/export"
	"ohwatch/model"
	"ohwatch/reducer"
)

// ExportFormats are the formats a conversation is exported in, from the
// command line and the TUI alike (export adds otlp).
var ExportFormats = []string{"md", "json", "jsonl"}

// ValidFormat reports whether f is one of ExportFormats.
func ValidFormat(f string) bool { return slices.Contains(ExportFormats, f) }

// WriteExport writes the conversation id titled title along path p of its
// tree (every event of a linear log) in one of the export formats.
// recorded says log is a recording that has ended (reducer.Verdict).
func WriteExport(w io.Writer, format, id, title string, log *reducer.Log, p reducer.Path, warnings []string, recorded bool) error {
	switch format {
	case "json":
		return export.WriteState(w, export.StateOn(log, p, p.Len(), warnings, recorded).Named(id, title))
	case "jsonl":
		events := make([]model.Event, 0, p.Len())
		for _, sp := range p {
			for i := sp.From; i <= sp.To; i++ {
				events = append(events, log.Event(i))
			}
		}
		return files.WriteJSONL(w, events)
	default:
		return export.MarkdownOn(w, title, log, p, recorded)
	}
}

// maxSlug bounds a file name's title part.
const maxSlug = 24

// slug makes a short file-name-safe form of a title.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		if b.Len() >= maxSlug {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "conversation"
	}
	return s
}
