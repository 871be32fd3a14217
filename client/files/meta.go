package files

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// meta is what ohwatch reads of the agent-server's meta.json
// (StoredConversation): its title, when it was last updated, and where it
// came from: the conversation it was forked from (and the event) or the
// one that delegated it.
type meta struct {
	Title                    string `json:"title"`
	UpdatedAt                string `json:"updated_at"`
	ForkedFromConversationID string `json:"forked_from_conversation_id"`
	ForkedFromEventID        string `json:"forked_from_event_id"`
	ParentConversationID     string `json:"parent_conversation_id"`
}

// metaUpdated is meta.json's updated_at, zero when absent or unreadable.
func metaUpdated(raw []byte) time.Time {
	var m meta
	if json.Unmarshal(raw, &m) != nil || m.UpdatedAt == "" {
		return time.Time{}
	}
	t, err := model.ParseTime(m.UpdatedAt)
	if err != nil {
		return time.Time{}
	}
	return t
}

// readOptional reads a file that may legitimately be absent: absent gives
// (nil, nil).
func readOptional(read func(name string) ([]byte, error), name string) ([]byte, error) {
	raw, err := read(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return raw, err
}

// readHeaderFile reads meta.json (or another small file) of the
// directory dir whole, within the limit for one event.
func readHeaderFile(dir, name string) ([]byte, error) {
	return readFileUpTo(filepath.Join(dir, name), nil, MaxEventBytes)
}

// openHeaderFile opens a file of the directory dir that may be big
// (base_state.json), a regular file only: it is streamed, never read
// whole.
func openHeaderFile(dir, name string) (io.ReadCloser, error) {
	f, _, err := openRegular(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	return f, nil
}

// readHeader reads a conversation's base_state.json (streamed through
// open: it is not an event and has no size limit, see MaxBaseStateBytes)
// and meta.json (through read) and returns the conversation's header;
// found reports whether either file exists.
func readHeader(path, dirName string, read func(name string) ([]byte, error), open func(name string) (io.ReadCloser, error)) (conv Conversation, found bool) {
	conv.Path = path
	base, baseFound, baseErr := readBase(open)
	metaRaw, metaErr := readOptional(read, "meta.json")
	if baseErr != nil {
		conv.Warnings = append(conv.Warnings, sanitize.Line("base_state.json: "+baseErr.Error()))
	}
	if metaErr != nil {
		conv.Warnings = append(conv.Warnings, "meta.json: cannot read: "+sanitize.Line(shortError(metaErr)))
	}
	conv.Base = base
	header(&conv, metaRaw, dirName)
	return conv, baseFound || metaRaw != nil
}

// readBase streams base_state.json through open (model.ReadBaseState):
// whatever its size, it is read in memory bounded by MaxBaseStateBytes
// outside the stats' per-call lists. Absent gives (nil, false, nil).
func readBase(open func(name string) (io.ReadCloser, error)) (base *model.BaseState, found bool, err error) {
	f, err := open("base_state.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("cannot read: %s", shortError(err))
	}
	defer f.Close()
	base, err = model.ReadBaseState(f, MaxBaseStateBytes)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, true, errors.New(strings.TrimSuffix(strings.TrimPrefix(err.Error(), "base state: "), ": "+io.ErrUnexpectedEOF.Error()))
	case err != nil:
		return nil, true, fmt.Errorf("invalid: %s", strings.TrimPrefix(err.Error(), "base state: "))
	}
	return base, true, nil
}

// header fills a conversation's id and title from its base state
// (conv.Base, may be nil) and the raw meta.json (may be nil), adding a
// warning when meta.json cannot be read. dirName is the conversation
// directory's name, the id of last resort.
func header(conv *Conversation, metaRaw []byte, dirName string) {
	var m *meta
	if metaRaw != nil {
		m = new(meta)
		if err := json.Unmarshal(metaRaw, m); err != nil {
			conv.Warnings = append(conv.Warnings, sanitize.Line("meta.json: "+describeBadJSON(metaRaw, err)))
			m = nil
		}
	}
	if conv.Base != nil && conv.Base.ID != "" {
		conv.ID = model.NormalizeConversationID(conv.Base.ID)
	}
	if conv.ID == "" {
		conv.ID = model.NormalizeConversationID(dirName)
	}
	if m != nil {
		parent := m.ForkedFromConversationID
		if parent == "" {
			parent = m.ParentConversationID
		}
		if parent = model.NormalizeConversationID(parent); model.IsConversationID(parent) && parent != conv.ID {
			conv.ParentID = parent
			if m.ForkedFromConversationID != "" {
				conv.ForkedFromEvent = sanitize.Line(m.ForkedFromEventID)
			}
		}
	}
	switch {
	case m != nil && strings.TrimSpace(m.Title) != "":
		conv.Title = sanitize.Line(m.Title)
	case conv.Base != nil && conv.Base.Title != "":
		conv.Title = sanitize.Line(conv.Base.Title)
	}
}

// userMessageProbe is how many of the first event files are read to find
// the first user message of an untitled conversation (it follows the
// system prompt, so it is normally the second).
const userMessageProbe = 8

// probeTitle is the first line of the first user message among the first
// few event files, for the title of a conversation that has none; "" when
// they hold none. It stops at that message (normally the second file): a
// root of a thousand conversations is listed with two reads each, not
// eight. Unreadable files are skipped quietly: the load that follows
// reports them.
func probeTitle(files []eventFile, read func(name string) ([]byte, error)) string {
	for _, f := range files[:min(len(files), userMessageProbe)] {
		raw, err := read(f.Name)
		if err != nil {
			continue
		}
		if ev, _, ok := decodeEvent(fileWhere("events/", f.Name), raw); ok {
			if t := firstUserText([]model.Event{ev}); t != "" {
				return t
			}
		}
	}
	return ""
}

// firstUserText is the first line of the first message a user wrote, for
// a conversation without a title; "" when events hold none.
func firstUserText(events []model.Event) string {
	for _, ev := range events {
		m, ok := ev.Body.(*model.Message)
		if !ok || ev.Source != "user" || m.Role != "user" {
			continue
		}
		text := strings.TrimSpace(strings.TrimPrefix(ev.Summary, m.Role+":"))
		if text != "" {
			return text
		}
	}
	return ""
}
