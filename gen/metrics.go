package gen

import (
	"strings"
	"time"

	"ohwatch/internal/jsonx"
	"ohwatch/model"
)

// Response is one LLM response: its id groups the tool calls it made
// (parallel calls share it), and the first event built from it carries its
// thought and reasoning while the others get empty ones, as upstream does.
type Response struct {
	ID        string
	thought   string
	reasoning string
	used      bool
}

// take returns the thought and reasoning the first time and "" after.
func (r *Response) take() (thought, reasoning string) {
	if r.used {
		return "", ""
	}
	r.used = true
	return r.thought, r.reasoning
}

// price is an LLM's list price in USD per million tokens.
type price struct{ input, output, cacheRead, cacheWrite float64 }

// priceOf knows the Claude models the environments use; anything else is
// priced like Sonnet.
func priceOf(model string) price {
	switch {
	case strings.Contains(model, "haiku"):
		return price{1, 5, 0.1, 1.25}
	case strings.Contains(model, "opus"):
		return price{5, 25, 0.5, 6.25}
	}
	return price{3, 15, 0.3, 3.75}
}

// tokenUsage mirrors upstream's TokenUsage.
type tokenUsage struct {
	prompt, completion, cacheRead, cacheWrite, reasoning int64
	contextWindow, perTurn                               int64
	responseID                                           string
}

// callRecord is one priced LLM call, kept for the full Metrics lists.
type callRecord struct {
	usage   tokenUsage
	cost    float64
	at      float64
	latency float64
}

// usageLedger is one usage id's Metrics.
type usageLedger struct {
	id, model  string
	cost       float64
	acc        tokenUsage
	calls      []callRecord
	lastPrompt int64 // the prompt prefix still in the provider's cache
}

const contextWindow = 200000

func (b *Builder) ledger(id, model string) *usageLedger {
	for _, u := range b.usages {
		if u.id == id {
			return u
		}
	}
	u := &usageLedger{id: id, model: model}
	b.usages = append(b.usages, u)
	return u
}

// record prices one call and adds it to the ledger.
func (b *Builder) record(u *usageLedger, t tokenUsage, latency time.Duration) {
	p := priceOf(u.model)
	fresh := t.prompt - t.cacheRead - t.cacheWrite
	cost := (float64(fresh)*p.input + float64(t.cacheRead)*p.cacheRead +
		float64(t.cacheWrite)*p.cacheWrite + float64(t.completion)*p.output) / 1e6
	t.contextWindow = contextWindow
	t.perTurn = t.prompt + t.completion
	u.cost += cost
	u.acc.prompt += t.prompt
	u.acc.completion += t.completion
	u.acc.cacheRead += t.cacheRead
	u.acc.cacheWrite += t.cacheWrite
	u.acc.reasoning += t.reasoning
	u.acc.contextWindow = contextWindow
	u.acc.perTurn = t.perTurn
	if b.keepCalls {
		u.calls = append(u.calls, callRecord{
			usage:   t,
			cost:    cost,
			at:      unixFloat(b.now),
			latency: float64(latency.Microseconds()) / 1e6,
		})
	}
}

// CallLLM simulates one call of the agent LLM: the clock moves by latency,
// the call is priced from the current context (cache reads for the prefix
// seen before, cache writes for what is new) and completion tokens, and the
// returned Response carries thought and reasoning for the events it makes.
// A Stats event should follow.
func (b *Builder) CallLLM(latency time.Duration, completion int, thought, reasoning string) *Response {
	b.Advance(latency)
	u := b.ledger("agent", b.env.Model)
	prompt := systemTokens + b.viewTokens + b.summaryTokens
	cacheRead := u.lastPrompt
	if cacheRead > prompt {
		cacheRead = systemTokens
	}
	fresh := int64(3 + b.rng.IntN(6))
	cacheWrite := prompt - cacheRead - fresh
	if cacheWrite < 0 {
		cacheWrite = 0
	}
	r := &Response{ID: randResponseID(b.rng), thought: thought, reasoning: reasoning}
	b.record(u, tokenUsage{
		prompt: prompt, completion: int64(completion), cacheRead: cacheRead,
		cacheWrite: cacheWrite, responseID: r.ID,
	}, latency)
	u.lastPrompt = prompt
	return r
}

// CallCondenser simulates the condenser LLM summarising the oldest part of
// the history and returns its response id for the Condensation. The agent's
// cached prefix is lost, since the history it covered changes.
func (b *Builder) CallCondenser(latency time.Duration, completion int) string {
	b.Advance(latency)
	u := b.ledger("condenser", b.env.CondenserModel)
	prompt := 1200 + b.viewTokens*2/3
	id := randResponseID(b.rng)
	b.record(u, tokenUsage{prompt: prompt, completion: int64(completion), responseID: id}, latency)
	if a := b.ledger("agent", b.env.Model); a.lastPrompt > systemTokens {
		a.lastPrompt = systemTokens
	}
	return id
}

// Stats is the per-field `stats` update pushed after every LLM call: the
// snapshot form (no lists) of every usage id so far.
func (b *Builder) Stats() []byte {
	id := b.begin("environment")
	b.buf = appendStringField(b.buf, "key", "stats")
	b.buf = appendKey(b.buf, "value")
	b.buf = b.appendStats(b.buf, false)
	return b.end(id, model.KindStateUpdate, artifact)
}

// appendStats appends ConversationStats. The snapshot form is what
// per-field updates carry (model_dump of MetricsSnapshot, nulls kept); the
// full form, with the per-call lists, is what base_state.json holds
// (exclude_none, so no null budget).
func (b *Builder) appendStats(dst []byte, full bool) []byte {
	dst = append(dst, `{"usage_to_metrics":{`...)
	for i, u := range b.usages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendString(dst, u.id, 0)
		dst = append(dst, ':', '{')
		dst = appendStringField(dst, "model_name", u.model)
		dst = appendFloatField(dst, "accumulated_cost", u.cost)
		if !full {
			dst = append(dst, `,"max_budget_per_task":null`...)
		}
		dst = appendKey(dst, "accumulated_token_usage")
		dst = appendTokenUsage(dst, u.model, u.acc, "")
		if full {
			dst = appendKey(dst, "costs")
			dst = append(dst, '[')
			for j, c := range u.calls {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, '{')
				dst = appendStringField(dst, "model", u.model)
				dst = appendFloatField(dst, "cost", c.cost)
				dst = appendFloatField(dst, "timestamp", c.at)
				dst = append(dst, '}')
			}
			dst = append(dst, ']')
			dst = appendKey(dst, "response_latencies")
			dst = append(dst, '[')
			for j, c := range u.calls {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, '{')
				dst = appendStringField(dst, "model", u.model)
				dst = appendFloatField(dst, "latency", c.latency)
				dst = appendStringField(dst, "response_id", c.usage.responseID)
				dst = append(dst, '}')
			}
			dst = append(dst, ']')
			dst = appendKey(dst, "token_usages")
			dst = append(dst, '[')
			for j, c := range u.calls {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = appendTokenUsage(dst, u.model, c.usage, c.usage.responseID)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

func appendTokenUsage(dst []byte, model string, t tokenUsage, responseID string) []byte {
	dst = append(dst, '{')
	dst = appendStringField(dst, "model", model)
	dst = appendIntField(dst, "prompt_tokens", t.prompt)
	dst = appendIntField(dst, "completion_tokens", t.completion)
	dst = appendIntField(dst, "cache_read_tokens", t.cacheRead)
	dst = appendIntField(dst, "cache_write_tokens", t.cacheWrite)
	dst = appendIntField(dst, "reasoning_tokens", t.reasoning)
	dst = appendIntField(dst, "context_window", t.contextWindow)
	dst = appendIntField(dst, "per_turn_token", t.perTurn)
	dst = appendStringField(dst, "response_id", responseID)
	return append(dst, '}')
}
