package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Summary is one conversation of a root, as List sees it without reading
// its events.
type Summary struct {
	ID    string // normalised conversation id
	Path  string // the conversation directory
	Title string // meta.json's title, or the first line of the first user message
	// Status is base_state.json's execution status; "" when unknown.
	// StatusDerived says that base_state.json was written by ohwatch from
	// the events (a recording's derived base state): its status repeats
	// what they say rather than a server's word.
	Status        string
	StatusDerived bool
	// Events is the number of event files.
	Events int
	// CostUSD is the combined accumulated cost of base_state.json's stats;
	// CostKnown is false when there is no base state to read it from.
	CostUSD   float64
	CostKnown bool
	// Stats are base_state.json's stats (nil when none): a fleet shows a
	// conversation it does not read from them.
	Stats *model.Stats
	// LastActivity is the timestamp of the last event, or else meta.json's
	// updated_at, or else the directory's modification time.
	LastActivity time.Time
	// ParentID is the conversation meta.json says this one was forked
	// from or delegated by ("" for neither); ForkedFromEvent is the event
	// it was forked at.
	ParentID        string
	ForkedFromEvent string
	// Warnings say what could not be read.
	Warnings []string
}

// DefaultRoot is where the OpenHands CLI keeps its conversations:
// $OPENHANDS_CONVERSATIONS_DIR when set, else
// $OPENHANDS_PERSISTENCE_DIR/conversations, else
// ~/.openhands/conversations.
func DefaultRoot() string {
	if dir := os.Getenv("OPENHANDS_CONVERSATIONS_DIR"); dir != "" {
		return dir
	}
	if dir := os.Getenv("OPENHANDS_PERSISTENCE_DIR"); dir != "" {
		return filepath.Join(dir, "conversations")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".openhands", "conversations")
	}
	return filepath.Join(home, ".openhands", "conversations")
}

// List summarises every conversation directory directly under root (one
// holding events/ or base_state.json), most recently active first. It is
// cheap: it counts event files instead of decoding them and reads only
// base_state.json, meta.json, the last event and, for an untitled
// conversation, the first few. Conversations are summarised in parallel.
func List(root string) ([]Summary, error) {
	return ListContext(context.Background(), root)
}

// ListContext is List, given up when ctx ends (with ctx's error): a root of
// thousands of conversations on a slow disk takes a while.
func ListContext(ctx context.Context, root string) ([]Summary, error) {
	if info, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("list conversations: %s is not a directory", root)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	var dirs []string
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if e.IsDir() && isConversationDir(dir) {
			dirs = append(dirs, dir)
		}
	}
	out := make([]Summary, len(dirs))
	parallelEach(len(dirs), func() func(int) {
		return func(i int) {
			if ctx.Err() == nil {
				out[i] = summarise(dirs[i])
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b Summary) int {
		if c := b.LastActivity.Compare(a.LastActivity); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out, nil
}

// Summarise reads one conversation directory's summary, as List does for
// each: a watcher of a root summarises the directories that appear in it.
func Summarise(dir string) Summary { return summarise(dir) }

// IsConversationDir reports whether dir holds a conversation: an events/
// directory or a base_state.json.
func IsConversationDir(dir string) bool { return isConversationDir(dir) }

// isConversationDir reports whether dir holds a conversation: an events/
// directory or a base_state.json.
func isConversationDir(dir string) bool {
	return isDir(filepath.Join(dir, eventsDirName)) || exists(filepath.Join(dir, "base_state.json"))
}

// countConversations counts the conversation directories directly under
// root.
func countConversations(root string) int {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() && isConversationDir(filepath.Join(root, e.Name())) {
			n++
		}
	}
	return n
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// summarise reads one conversation directory's summary.
func summarise(dir string) Summary {
	s := Summary{Path: dir}
	read := func(name string) ([]byte, error) { return readHeaderFile(dir, name) }
	open := func(name string) (io.ReadCloser, error) { return openHeaderFile(dir, name) }
	conv, _ := readHeader(dir, filepath.Base(dir), read, open)
	s.ID, s.Title, s.Warnings = conv.ID, conv.Title, conv.Warnings
	s.ParentID, s.ForkedFromEvent = conv.ParentID, conv.ForkedFromEvent
	if conv.Base != nil {
		s.Status = sanitize.Line(conv.Base.ExecutionStatus)
		s.StatusDerived = conv.Base.Derived
		s.CostUSD, s.CostKnown = totalCost(conv.Base.Stats), true
		s.Stats = conv.Base.Stats
	}

	eventsDir := filepath.Join(dir, eventsDirName)
	names, err := readNames(eventsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.Warnings = append(s.Warnings, sanitize.Line("events/: "+shortError(err)))
	}
	files, _ := eventFiles(names)
	s.Events = len(files)
	if len(files) > 0 {
		last := files[len(files)-1]
		if ev, ok := readEvent(eventsDir, last.Name); ok {
			s.LastActivity = ev.Time
		}
	}
	if s.Title == "" {
		s.Title = probeTitle(files, func(name string) ([]byte, error) {
			return readFile(filepath.Join(eventsDir, name), nil)
		})
	}
	if s.LastActivity.IsZero() {
		if metaRaw, err := read("meta.json"); err == nil {
			s.LastActivity = metaUpdated(metaRaw)
		}
	}
	if s.LastActivity.IsZero() {
		if info, err := os.Stat(dir); err == nil {
			s.LastActivity = info.ModTime()
		}
	}
	return s
}

// readEvent reads and decodes one event file, quietly: List reports
// counts, not the health of each file (Load does).
func readEvent(dir, name string) (model.Event, bool) {
	raw, err := readFile(filepath.Join(dir, name), nil)
	if err != nil {
		return model.Event{}, false
	}
	ev, _, ok := decodeEvent(fileWhere("events/", name), raw)
	return ev, ok
}

// totalCost sums the accumulated cost of every LLM usage.
func totalCost(stats *model.Stats) float64 {
	if stats == nil {
		return 0
	}
	var sum float64
	for _, m := range stats.UsageToMetrics {
		if m != nil {
			sum += m.AccumulatedCost
		}
	}
	return sum
}
