package gen

import (
	"math/rand/v2"
	"slices"
	"time"

	"ohwatch/internal/jsonx"
	"ohwatch/model"
)

// Builder writes one conversation's events as upstream's agent-server
// persists them: compact JSON, absent rather than null optional fields,
// naive ISO timestamps with microseconds, uuid4 ids, `parent_id` chaining
// and `kind` last. It is the one place in the project that builds event
// JSON; the random generator (Events) and the scripted demo both drive it.
//
// A Builder keeps a clock, the conversation's HEAD, the events the LLM
// currently sees (for condensation and token counts) and the LLM usage
// ledger behind `stats` updates. It is not safe for concurrent use.
type Builder struct {
	rng        *rand.Rand
	now        time.Time
	convID     string
	head       string
	buf        []byte
	obuf       []byte // scratch for nested action and observation objects
	views      map[viewKey][]byte
	escaped    map[string][]byte
	view       []viewEntry
	viewTokens int64
	// summaryTokens is the weight of the latest condensation summary.
	summaryTokens int64
	// outOfContext is the bytes of the event being built that never reach
	// the LLM (an empty extended_content), left out of its weight.
	outOfContext int
	usages       []*usageLedger
	keepCalls    bool
	env          Environment

	lastUserID string
	status     string
	// trail is the end of HEAD's path: the last tree events on it, oldest
	// first, the places Navigate can move HEAD back to.
	trail []string
	// parent is the parent_id of the event being built.
	parent string
	// onTree, when set, hears of every event that becomes HEAD and its
	// parent_id ("" for none): how a fork finds the branch it copies.
	onTree func(id, parent string)
}

// trailLen is how far back along HEAD's path Navigate can go.
const trailLen = 256

// Environment is where the simulated agent runs: it shows up in terminal
// observation metadata, file paths and base_state.json.
type Environment struct {
	WorkingDir string // the repository the agent works in
	Username   string
	Hostname   string
	Model      string // the agent LLM, as LiteLLM names it
	// CondenserModel is the condenser LLM; "" means Model.
	CondenserModel string
	// ConfirmationPolicy is "NeverConfirm", "AlwaysConfirm" or
	// "ConfirmRisky" (threshold HIGH).
	ConfirmationPolicy string
}

// DefaultEnvironment is an OpenHands Cloud sandbox working on a checkout
// under /workspace/project with Claude Sonnet behind the LiteLLM proxy.
func DefaultEnvironment() Environment {
	return Environment{
		WorkingDir:         "/workspace/project/ledgerd",
		Username:           "openhands",
		Hostname:           "runtime-5c9d7f8b6-xq4lz",
		Model:              "litellm_proxy/anthropic/claude-sonnet-4-5-20250929",
		CondenserModel:     "litellm_proxy/anthropic/claude-haiku-4-5-20251001",
		ConfirmationPolicy: "ConfirmRisky",
	}
}

// viewEntry is one LLM-visible event and its rough token weight.
type viewEntry struct {
	id     string
	tokens int64
}

// systemTokens is the token weight of the full upstream system prompt and
// tool schemas (the event carries an abridged text).
const systemTokens = 9400

// NewBuilder returns a Builder whose ids and jitter come from seed and whose
// clock starts at start (naive local time, as upstream writes it).
func NewBuilder(seed int64, start time.Time, env Environment) *Builder {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6f687761746368)) // "ohwatch"
	b := &Builder{rng: rng, now: start, env: env, status: "idle"}
	if b.env.CondenserModel == "" {
		b.env.CondenserModel = b.env.Model
	}
	if b.env.ConfirmationPolicy == "" {
		b.env.ConfirmationPolicy = "NeverConfirm"
	}
	b.convID = randUUID(rng)
	return b
}

// KeepCalls makes the builder remember every LLM call, which BaseState
// needs for its full Metrics lists. Streaming generators leave it off so
// that memory stays flat however long the conversation.
func (b *Builder) KeepCalls() { b.keepCalls = true }

// ConversationID is the conversation's id in its dashed form.
func (b *Builder) ConversationID() string { return b.convID }

// Now is the builder's clock: the timestamp the next event gets (plus a
// little jitter).
func (b *Builder) Now() time.Time { return b.now }

// Advance moves the clock forward, for the time an LLM call or a tool run
// takes.
func (b *Builder) Advance(d time.Duration) { b.now = b.now.Add(d) }

// Rand is the builder's seeded random source, for scripts that want
// variation that is still reproducible.
func (b *Builder) Rand() *rand.Rand { return b.rng }

// Env is the environment the builder simulates.
func (b *Builder) Env() Environment { return b.env }

// begin starts an event: it resets the scratch buffer, steps the clock by a
// little jitter and writes the base fields every event has.
func (b *Builder) begin(source string) string {
	b.now = b.now.Add(time.Duration(200+b.rng.IntN(2800)) * time.Microsecond)
	id := randUUID(b.rng)
	buf := append(b.buf[:0], '{')
	buf = appendStringField(buf, "id", id)
	buf = appendKey(buf, "timestamp")
	buf = append(buf, '"')
	buf = appendTimestamp(buf, b.now)
	buf = append(buf, '"')
	buf = appendStringField(buf, "source", source)
	b.parent = b.head
	if b.head != "" {
		buf = appendStringField(buf, "parent_id", b.head)
	}
	b.buf = buf
	return id
}

// eventKind says how an event relates to the conversation tree and to the
// LLM's view.
type eventKind int

const (
	// artifact events (state updates) never become HEAD.
	artifact eventKind = iota
	// treeEvent events become HEAD but are not shown to the LLM.
	treeEvent
	// viewEvent events become HEAD and are part of the LLM's view.
	viewEvent
)

// end closes the event with its kind and returns a copy the caller owns.
func (b *Builder) end(id, kind string, k eventKind) []byte {
	b.buf = appendStringField(b.buf, "kind", kind)
	b.buf = append(b.buf, '}')
	out := make([]byte, len(b.buf))
	copy(out, b.buf)
	outOfContext := b.outOfContext
	b.outOfContext = 0
	if k != artifact {
		if b.onTree != nil {
			b.onTree(id, b.parent)
		}
		b.head = id
		if len(b.trail) == 2*trailLen {
			b.trail = append(b.trail[:0], b.trail[trailLen:]...)
		}
		b.trail = append(b.trail, id)
	}
	if k == viewEvent {
		t := int64((len(out)-outOfContext)/4 + 12)
		b.view = append(b.view, viewEntry{id: id, tokens: t})
		b.viewTokens += t
	}
	return out
}

// Navigate moves HEAD back to the event id on HEAD's path, as the
// agent-server's navigate does: nothing is written, the events after it
// leave the conversation (and the LLM's view), and the next event names it
// as its parent_id. It reports whether id is recent enough on HEAD's path
// to move back to (the last trailLen events of it always are).
func (b *Builder) Navigate(id string) bool {
	k := slices.Index(b.trail, id)
	if k < 0 {
		return false
	}
	b.trail = b.trail[:k+1]
	b.head = id
	if v := slices.IndexFunc(b.view, func(e viewEntry) bool { return e.id == id }); v >= 0 {
		for _, e := range b.view[v+1:] {
			b.viewTokens -= e.tokens
		}
		b.view = b.view[:v+1]
	}
	return true
}

// appendText appends a TextContent object.
func appendText(dst []byte, text string) []byte {
	dst = append(dst, `{"cache_prompt":false,"type":"text","text":`...)
	dst = jsonx.AppendString(dst, text, 0)
	return append(dst, '}')
}

// appendTextList appends a list holding one TextContent, or [] for "".
func appendTextList(dst []byte, text string) []byte {
	dst = append(dst, '[')
	if text != "" {
		dst = appendText(dst, text)
	}
	return append(dst, ']')
}

// appendThinking appends reasoning_content and thinking_blocks for an
// extended-thinking response ("" gives just an empty block list).
func (b *Builder) appendThinking(dst []byte, reasoning string) []byte {
	if reasoning != "" {
		dst = appendStringField(dst, "reasoning_content", reasoning)
	}
	dst = appendKey(dst, "thinking_blocks")
	dst = append(dst, '[')
	if reasoning != "" {
		dst = append(dst, `{"type":"thinking","thinking":`...)
		dst = jsonx.AppendString(dst, reasoning, 0)
		dst = appendStringField(dst, "signature", randSignature(b.rng, len(reasoning)))
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// User is a user MessageEvent: the start of a turn, or a message sent while
// the agent runs.
func (b *Builder) User(text string) []byte {
	id := b.begin("user")
	b.buf = appendKey(b.buf, "llm_message")
	b.buf = append(b.buf, `{"role":"user","content":`...)
	b.buf = appendTextList(b.buf, text)
	b.buf = append(b.buf, `,"thinking_blocks":[]}`...)
	b.buf = append(b.buf, `,"activated_skills":[],"extended_content":[]`...)
	b.lastUserID = id
	return b.end(id, model.KindMessage, viewEvent)
}

// AgentMessage is an agent MessageEvent: the reply that ends a turn. r is
// the LLM response it came from; its reasoning goes on the message.
func (b *Builder) AgentMessage(r *Response, text string) []byte {
	id := b.begin("agent")
	b.buf = appendKey(b.buf, "llm_message")
	b.buf = append(b.buf, `{"role":"assistant","content":`...)
	b.buf = appendTextList(b.buf, text)
	_, reasoning := r.take()
	b.buf = b.appendThinking(b.buf, reasoning)
	b.buf = append(b.buf, '}')
	b.buf = appendStringField(b.buf, "llm_response_id", r.ID)
	b.buf = append(b.buf, `,"activated_skills":[],"extended_content":[]`...)
	return b.end(id, model.KindMessage, viewEvent)
}

// Status is a per-field execution_status update.
func (b *Builder) Status(status string) []byte {
	b.status = status
	id := b.begin("environment")
	b.buf = appendStringField(b.buf, "key", "execution_status")
	b.buf = appendStringField(b.buf, "value", status)
	return b.end(id, model.KindStateUpdate, artifact)
}

// CondensationRequest asks for the history to be condensed (the context
// window was exceeded); a Condensation follows.
func (b *Builder) CondensationRequest() []byte {
	id := b.begin("environment")
	return b.end(id, model.KindCondensationRequest, treeEvent)
}

// ViewLen is how many events the LLM currently sees.
func (b *Builder) ViewLen() int { return len(b.view) }

// Condensation forgets the forget events of the LLM's view that follow the
// first keepFirst ones; they stay in the log and leave the LLM's context.
// responseID is the condenser call's (see CallCondenser).
func (b *Builder) Condensation(keepFirst, forget int, summary, responseID string) []byte {
	if keepFirst > len(b.view) {
		keepFirst = len(b.view)
	}
	if keepFirst+forget > len(b.view) {
		forget = len(b.view) - keepFirst
	}
	id := b.begin("environment")
	b.buf = appendKey(b.buf, "forgotten_event_ids")
	b.buf = append(b.buf, '[')
	for i, e := range b.view[keepFirst : keepFirst+forget] {
		if i > 0 {
			b.buf = append(b.buf, ',')
		}
		b.buf = jsonx.AppendString(b.buf, e.id, 0)
		b.viewTokens -= e.tokens
	}
	b.buf = append(b.buf, ']')
	b.view = append(b.view[:keepFirst], b.view[keepFirst+forget:]...)
	b.buf = appendStringField(b.buf, "summary", summary)
	b.buf = appendIntField(b.buf, "summary_offset", int64(keepFirst))
	b.buf = appendStringField(b.buf, "llm_response_id", responseID)
	// The summary now stands in for everything forgotten so far.
	b.summaryTokens = int64(len(summary)/4 + 12)
	return b.end(id, model.KindCondensation, treeEvent)
}
