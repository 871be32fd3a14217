package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"ohwatch/client/files"
	"ohwatch/export"
	"ohwatch/model"
	"ohwatch/reducer"
)

func runExport(args []string, env *environment) int {
	fs := newFlagSet("export", "export PATH --format md|json|jsonl|otlp [--branch ID] [-o FILE]", env.stderr)
	format := fs.String("format", "md", "md (a readable transcript), json (the derived state), jsonl (the events) or otlp (OTLP/JSON traces)")
	outPath := fs.String("o", "", "write to `FILE` instead of stdout")
	content := bindOTLPContent(fs)
	branch := bindBranch(fs)
	pos, code, ok := checkCommand(fs, args, func(p []string) error {
		if !validFormat(*format) && *format != "otlp" {
			return usageErr(fmt.Sprintf("unknown --format %q", *format), "--format takes "+strings.Join(exportFormats, ", ")+", otlp")
		}
		if err := onePath(p, "PATH of the recording to export", "ohwatch export PATH --format md (an SDK directory, JSONL file or trajectory zip)"); err != nil {
			return err
		}
		return existingPath(p[0])
	})
	if !ok {
		return code
	}
	ctx, stop := interruptible()
	defer stop()
	conv, log, err := loadLog(ctx, pos[0])
	if err != nil {
		return loadFailed(ctx, env, "export", err)
	}
	p, err := branchPath(log, *branch)
	if err != nil {
		return reportUsage(env.stderr, "export", err)
	}
	// What could not be read is said beside the export, not inside it.
	warnUnread(env, "export", conv)
	w := env.stdout
	if *outPath != "" {
		f, err := os.Create(*outPath)
		if err != nil {
			fmt.Fprintf(env.stderr, "ohwatch export: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	var werr error
	if *format == "otlp" {
		werr = exportOTLP(w, env, conv, log, p, pos[0], *content)
	} else {
		werr = writeExport(w, *format, titleOf(conv.Title, conv.ID, pos[0]), log, p, conv.Warnings, true)
	}
	if err := werr; err != nil {
		fmt.Fprintf(env.stderr, "ohwatch export: %v\n", err)
		return 1
	}
	return 0
}

// exportFormats are the values --format takes.
var exportFormats = []string{"md", "json", "jsonl"}

func validFormat(f string) bool { return slices.Contains(exportFormats, f) }

// writeExport writes the conversation along path p of its tree (every
// event of a linear log) in one of the export formats. recorded says log
// is a recording that has ended (reducer.Verdict).
func writeExport(w io.Writer, format, title string, log *reducer.Log, p reducer.Path, warnings []string, recorded bool) error {
	switch format {
	case "json":
		return export.WriteState(w, export.StateOn(log, p, p.Len(), warnings, recorded))
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
