package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"ohwatch/model"
)

// A fork is what the agent-server's POST /{id}/fork with from_event_id
// makes: a new conversation (its own directory under the same root, a new
// id) that starts as a copy of the source's branch from the root to that
// event, with the events' ids, parent_ids and bytes unchanged and HEAD at
// the fork point, and meta.json naming where it came from
// (forked_from_conversation_id, forked_from_event_id). State updates are
// not on a branch (they never become HEAD), so none is copied. The fork's
// metrics start from nothing (reset_metrics, the default): its stats count
// only the LLM calls it makes itself. Then it goes on: the user asks again,
// differently, and the agent works from there.

// WriteRoot writes a conversations root under root (created if needed), as
// an agent-server keeps one: the conversation o describes in its own
// directory (named by its id in hex, with meta.json), navigated
// o.Branches times, and o.Forks forks of it, each from an event on the
// conversation's HEAD path at the moment, spread evenly over it. It
// returns the directories written, the conversation's first.
func WriteRoot(root string, o Options) ([]string, error) {
	c := newConvo(o, true)
	dir := filepath.Join(root, hexID(c.b.ConversationID()))
	start := c.b.Now()
	if err := writeEvents(dir, o.Events, c.next); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "base_state.json"), c.b.BaseState(), 0o644); err != nil {
		return nil, err
	}
	end := c.b.Now()
	if err := writeMeta(dir, storedConversation{ID: hexID(c.b.ConversationID()), CreatedAt: stamp(start), UpdatedAt: stamp(end)}); err != nil {
		return nil, err
	}
	dirs := []string{dir}
	for i := range max(o.Forks, 0) {
		d, err := writeFork(root, o, i, c.b.ConversationID(), end.Add(time.Duration(i+1)*7*time.Minute))
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// ForkPoint is the event index at or after which fork i of o is made: the
// forks are spread evenly over the conversation.
func ForkPoint(o Options, i int) int {
	return max(minEvents, o.Events*(i+1)/(max(o.Forks, 1)+1))
}

// forkLength is how many events of its own a fork of o has.
func forkLength(o Options) int {
	return max(minEvents+20, o.Events/(max(o.Forks, 1)+1))
}

// writeFork writes fork i of the conversation o describes (whose dashed id
// is source), made at time at, and returns its directory.
//
// The fork point is the conversation's HEAD once the step that holds event
// ForkPoint(o, i) is written (every action answered). A first run of the
// generator finds it and the branch leading to it; a second, the same
// seed, writes the events on that branch and then turns into the fork.
func writeFork(root string, o Options, i int, source string, at time.Time) (string, error) {
	scout := newConvo(o, false)
	parents := map[string]string{}
	scout.b.onTree = func(id, parent string) { parents[id] = parent }
	point := ForkPoint(o, i)
	for (scout.emitted < point || len(scout.queue) > 0) && scout.emitted < scout.total {
		scout.next()
	}
	if len(scout.queue) > 0 {
		return "", fmt.Errorf("gen: fork %d: no step ends after event %d", i, point)
	}
	from, produced := scout.b.head, scout.emitted
	branch := map[string]bool{}
	for id := from; id != "" && !branch[id]; id = parents[id] {
		branch[id] = true
	}

	c := newConvo(o, true)
	forkRng := rand.New(rand.NewPCG(uint64(o.Seed), 0x666f726b00+uint64(i))) // "fork"
	forkID := randUUID(forkRng)
	dir := filepath.Join(root, hexID(forkID))
	own := forkLength(o)
	copied := 0
	next := func() []byte {
		for copied < len(branch) {
			raw := c.next()
			if id, ok := eventID(raw); ok && branch[id] {
				copied++
				if copied == len(branch) {
					for c.emitted < produced {
						c.next() // the rest of the step, past the fork point: not copied
					}
					c.becomeFork(forkID, forkRng, at, own, i)
				}
				return raw
			}
		}
		return c.next()
	}
	if err := writeEvents(dir, len(branch)+own, next); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "base_state.json"), c.b.BaseState(), 0o644); err != nil {
		return "", err
	}
	title := forkTitles[i%len(forkTitles)]
	meta := storedConversation{ID: hexID(forkID), Title: &title, CreatedAt: stamp(at), UpdatedAt: stamp(c.b.Now()),
		ForkedFromConversationID: hexID(source), ForkedFromEventID: from}
	return dir, writeMeta(dir, meta)
}

// becomeFork turns the conversation, at the fork point, into the fork:
// its id, a random source of its own (the same seed gives the same fork),
// its clock at the moment the fork is made, metrics reset, no navigation,
// and total more events: the user's new request, running, and a turn
// of steps ending with finish.
func (c *convo) becomeFork(id string, rng *rand.Rand, at time.Time, total, i int) {
	c.queue = nil
	c.b.convID = id
	c.b.rng, c.rng = rng, rng
	c.b.usages = nil
	c.b.now = at
	c.b.status = model.StatusIdle
	c.b.onTree = nil
	c.branches, c.branchesDue, c.rests = 0, 0, nil
	c.emitted, c.total, c.started = 0, max(total, minEvents), true
	c.push(c.b.User(forkRequests[i%len(forkRequests)]), c.b.Status(model.StatusRunning))
	c.startTurn(c.total - 2 - wrapSize)
}

// storedConversation is the part of the agent-server's meta.json
// (StoredConversation) a generated root writes: ids in hex, as meta.json
// holds them.
type storedConversation struct {
	ID                       string  `json:"id"`
	Title                    *string `json:"title"`
	CreatedAt                string  `json:"created_at"`
	UpdatedAt                string  `json:"updated_at"`
	ForkedFromConversationID string  `json:"forked_from_conversation_id,omitempty"`
	ForkedFromEventID        string  `json:"forked_from_event_id,omitempty"`
}

func writeMeta(dir string, m storedConversation) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "meta.json"), raw, 0o644)
}

// stamp is a meta.json time: UTC, as the agent-server's utc_now() gives.
func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}
