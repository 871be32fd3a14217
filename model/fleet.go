package model

import "time"

// SourceKind says what kind of place a fleet's conversations come from.
type SourceKind int

// The kinds of fleet source.
const (
	// SourceLocal is a local conversations root (one directory per
	// conversation, watched for new ones).
	SourceLocal SourceKind = iota
	// SourceServer is an agent-server: every conversation it hosts.
	SourceServer
	// SourceCloud is an OpenHands Cloud account.
	SourceCloud
)

// String implements fmt.Stringer.
func (k SourceKind) String() string {
	switch k {
	case SourceLocal:
		return "local"
	case SourceServer:
		return "server"
	case SourceCloud:
		return "cloud"
	}
	return "unknown"
}

// ConversationRef names one conversation of a fleet: the source it comes
// from (its label, unique within a fleet: a root's path, a server's URL
// without credentials, "cloud") and its id there. Two sources may hold the
// same id; the pair is what is unique.
type ConversationRef struct {
	Source string
	Kind   SourceKind
	ID     string
}

// ConversationMeta is what a source's listing says about a conversation
// beside its events: shown before the first event arrives, and kept for what
// events do not carry (a title set on the server, a paused sandbox).
type ConversationMeta struct {
	Title string
	// Status is the execution status the listing reports ("" when none).
	Status string
	// BaseStatus says Status is a local conversation's base_state.json as
	// its server wrote it: once every event is read, it is the
	// recording's last status, as a full fold of the recording states it
	// ("finished (recorded, base_state)").
	BaseStatus bool
	// StatusSource is where Status came from when a source decided it
	// from events rather than a listing's word (a long local
	// conversation's last event files: "state_update", "inferred", …),
	// so the row words it as a fold of every event would; "" otherwise.
	StatusSource string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// Stats are the metrics the listing reports, nil when it reports none.
	Stats *Stats
	// Usage is Stats already summed as a row shows them, set instead of
	// Stats by a source that keeps many listed conversations: a few words
	// where the stats are a map and a struct per LLM usage.
	Usage *ListedUsage
	// Paused is set for a Cloud conversation whose sandbox is paused: its
	// events are the Cloud's stored ones and no live stream runs.
	Paused bool
	// ParentID is the conversation this one was forked from or delegated
	// by, in the same source ("" for none); ForkedFromEvent is the event it
	// was forked at.
	ParentID        string
	ForkedFromEvent string
}

// FleetUpdate is what a fleet source hands its consumer about one
// conversation: its listing when it was (re)listed, and the events and
// connection changes that arrived for it since the last update. Updates
// travel in slices, about one slice per frame for the whole fleet.
//
// An update whose Ref has an empty ID is about the source itself, not a
// conversation: its Batch carries the source's connection state (a server
// or Cloud whose listing fails, retried with backoff; Code "auth" when the
// key was rejected) and warnings. It never carries events or a Meta.
type FleetUpdate struct {
	Ref ConversationRef
	// Meta is non-nil when the conversation was listed (first seen, or its
	// listing changed).
	Meta *ConversationMeta
	// Batch carries the conversation's new events, connection state,
	// warnings and loading progress, as a single-conversation source does.
	Batch Batch
}

// ListedUsage is what a fleet row shows of the LLM usage a listing
// reports: the totals by the reducer's rule (reducer.ListedUsageOf).
// CallsKnown is false when the stats carried no per-call lists (a stats
// update's snapshot form), from which the number of calls cannot be told.
type ListedUsage struct {
	CostUSD    float64
	Tokens     int64
	Calls      int
	CostKnown  bool
	CallsKnown bool
}
