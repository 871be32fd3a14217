package files

import (
	"encoding/json"
	"errors"
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

// readHeaderFile reads base_state.json or meta.json of the directory dir
// (as readHeader's read): base_state.json within MaxBaseStateBytes, not
// the limit for one event.
func readHeaderFile(dir, name string) ([]byte, error) {
	limit := int64(MaxEventBytes)
	if name == "base_state.json" {
		limit = MaxBaseStateBytes
	}
	return readFileUpTo(filepath.Join(dir, name), nil, limit)
}

// readHeader reads a conversation's base_state.json and meta.json through
// read and returns the conversation's header; found reports whether either
// file exists.
func readHeader(path, dirName string, read func(name string) ([]byte, error)) (conv Conversation, found bool) {
	conv.Path = path
	baseRaw, baseErr := readOptional(read, "base_state.json")
	metaRaw, metaErr := readOptional(read, "meta.json")
	if baseErr != nil {
		conv.Warnings = append(conv.Warnings, "base_state.json: cannot read: "+sanitize.Line(shortError(baseErr)))
	}
	if metaErr != nil {
		conv.Warnings = append(conv.Warnings, "meta.json: cannot read: "+sanitize.Line(shortError(metaErr)))
	}
	header(&conv, baseRaw, metaRaw, dirName)
	return conv, baseRaw != nil || metaRaw != nil
}

// header fills a conversation's id, title and base state from the raw
// base_state.json and meta.json (either may be nil), adding a warning for
// each that cannot be read. dirName is the conversation directory's name,
// the id of last resort.
func header(conv *Conversation, baseRaw, metaRaw []byte, dirName string) {
	if baseRaw != nil {
		base, err := model.DecodeBaseState(baseRaw)
		if err != nil {
			msg := strings.TrimPrefix(describeBadJSON(baseRaw, err), "invalid: base state: ")
			conv.Warnings = append(conv.Warnings, sanitize.Line("base_state.json: "+msg))
		} else {
			conv.Base = base
		}
	}
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
