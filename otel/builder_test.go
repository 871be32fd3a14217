package otel

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/sanitize"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// conversation is one test input: a name (the trace key) and its events.
type conversation struct {
	name string
	evs  []model.Event
}

// conversations are every upstream recording and two generated ones (the
// generated ones report metrics, errors and condensations; the recorded
// CLI ones report no metrics at all).
func conversations(t *testing.T) []conversation {
	var cs []conversation
	for _, dir := range fixtures.Recordings(t) {
		cs = append(cs, conversation{filepath.Base(dir), testevents.Recorded(t, dir)})
	}
	cs = append(cs,
		conversation{"generated-2000", testevents.Generated(t, 2000, 7)},
		conversation{"generated-500", testevents.Generated(t, 500, 11)})
	return cs
}

// spansOf builds the spans of a conversation, in the SDK's test form, and
// returns them with the final State.
func spansOf(t *testing.T, c conversation, opts Options) (tracetest.SpanStubs, reducer.State) {
	t.Helper()
	spans, final := builtSpans(c, opts)
	return stubs(spans, "", "test"), final
}

func attr(s tracetest.SpanStub, k attribute.Key) (attribute.Value, bool) {
	for _, kv := range s.Attributes {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

func opName(s tracetest.SpanStub) string {
	v, _ := attr(s, "gen_ai.operation.name")
	return v.AsString()
}

// TestTraceShape checks, over every recording, the tree the spans form and
// that their figures are exactly the reducer's.
func TestTraceShape(t *testing.T) {
	for _, c := range conversations(t) {
		t.Run(c.name, func(t *testing.T) {
			spans, final := spansOf(t, c, Options{})
			byID := map[string]tracetest.SpanStub{}
			var roots, chats, tools, toolErrors int
			var in, out, cacheRead, cacheWrite, reasoning int64
			for _, s := range spans {
				id := s.SpanContext.SpanID().String()
				if _, dup := byID[id]; dup {
					t.Fatalf("span id %s twice", id)
				}
				byID[id] = s
				if s.SpanContext.TraceID() != TraceID(c.name) {
					t.Fatalf("span %q in trace %s", s.Name, s.SpanContext.TraceID())
				}
			}
			for _, s := range spans {
				switch op := opName(s); {
				case op == "invoke_agent":
					roots++
					if s.Parent.IsValid() {
						t.Errorf("root has a parent")
					}
				case !s.Parent.IsValid():
					t.Errorf("%q has no parent", s.Name)
				default:
					if _, ok := byID[s.Parent.SpanID().String()]; !ok {
						t.Errorf("%q: parent %s missing", s.Name, s.Parent.SpanID())
					}
				}
				if s.EndTime.Before(s.StartTime) {
					t.Errorf("%q ends before it starts", s.Name)
				}
				switch opName(s) {
				case "chat":
					chats++
					for k, sum := range map[attribute.Key]*int64{
						"gen_ai.usage.input_tokens": &in, "gen_ai.usage.output_tokens": &out,
						"gen_ai.usage.cache_read.input_tokens": &cacheRead, "gen_ai.usage.cache_creation.input_tokens": &cacheWrite,
						"gen_ai.usage.reasoning.output_tokens": &reasoning,
					} {
						if v, ok := attr(s, k); ok {
							*sum += v.AsInt64()
						}
					}
				case "execute_tool":
					tools++
					if s.Status.Code == codes.Error {
						toolErrors++
					}
					if p := byID[s.Parent.SpanID().String()]; opName(p) != "chat" && final.Metrics.Combined.LLMCalls > 0 {
						if _, hasResp := attr(s, "gen_ai.tool.call.id"); hasResp && opName(p) == "" {
							t.Errorf("tool %q nested under %q", s.Name, p.Name)
						}
					}
				}
			}
			if roots != 1 {
				t.Fatalf("%d roots", roots)
			}
			m := final.Metrics.Combined
			if chats != m.LLMCalls {
				t.Errorf("%d chat spans, %d LLM calls", chats, m.LLMCalls)
			}
			if in != m.Prompt || out != m.Completion || cacheRead != m.CacheRead || cacheWrite != m.CacheWrite || reasoning != m.Reasoning {
				t.Errorf("tokens in spans %d/%d/%d/%d/%d, state %d/%d/%d/%d/%d", in, out, cacheRead, cacheWrite, reasoning,
					m.Prompt, m.Completion, m.CacheRead, m.CacheWrite, m.Reasoning)
			}
			actions, obsErrors := 0, 0
			for _, ev := range c.evs {
				switch b := ev.Body.(type) {
				case *model.Action:
					actions++
				case *model.Observation:
					if b.IsError {
						obsErrors++
					}
				case *model.AgentError:
					if b.ToolCallID != "" {
						obsErrors++
					}
				}
			}
			t.Logf("%d spans: %d chat, %d tool (%d errors)", len(spans), chats, tools, toolErrors)
			if tools != actions {
				t.Errorf("%d tool spans, %d actions", tools, actions)
			}
			if toolErrors != obsErrors {
				t.Errorf("%d error tool spans, %d error observations", toolErrors, obsErrors)
			}
		})
	}
}

// TestDeterministic: the same conversation built twice gives the same
// spans, ids and all, so a second export does not duplicate the trace.
func TestDeterministic(t *testing.T) {
	c := conversation{"generated-500", testevents.Generated(t, 500, 11)}
	a, _ := spansOf(t, c, Options{})
	b, _ := spansOf(t, c, Options{})
	if len(a) != len(b) {
		t.Fatalf("%d spans, then %d", len(a), len(b))
	}
	for i := range a {
		if !a[i].SpanContext.Equal(b[i].SpanContext) || !a[i].Parent.Equal(b[i].Parent) || a[i].Name != b[i].Name ||
			!a[i].StartTime.Equal(b[i].StartTime) || !a[i].EndTime.Equal(b[i].EndTime) ||
			fmt.Sprint(a[i].Attributes) != fmt.Sprint(b[i].Attributes) {
			t.Fatalf("span %d differs:\n%+v\n%+v", i, a[i], b[i])
		}
	}
}

// TestNoMetricsNoNumbers: a recording that reported no metrics gets no
// chat spans and no token or cost attributes anywhere.
func TestNoMetricsNoNumbers(t *testing.T) {
	c := conversation{"simple_echo_hello_world", testevents.Twin(t, "simple_echo_hello_world")}
	spans, _ := spansOf(t, c, Options{})
	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.HasPrefix(string(kv.Key), "gen_ai.usage.") || kv.Key == attrCost {
				t.Errorf("%q has %s without metrics", s.Name, kv.Key)
			}
		}
	}
}

// TestContentIsOptInAndCapped: tool outputs reach a span only with
// Options.Content, sanitised and capped.
func TestContentIsOptInAndCapped(t *testing.T) {
	c := conversation{"generated-500", testevents.Generated(t, 500, 11)}
	without, _ := spansOf(t, c, Options{})
	for _, s := range without {
		if _, ok := attr(s, "gen_ai.tool.call.result"); ok {
			t.Fatalf("%q carries output without Content", s.Name)
		}
	}
	with, _ := spansOf(t, c, Options{Content: true})
	results := 0
	for _, s := range with {
		for _, k := range []attribute.Key{"gen_ai.tool.call.result", "gen_ai.tool.call.arguments"} {
			v, ok := attr(s, k)
			if !ok {
				continue
			}
			results++
			if len(v.AsString()) > ContentCap || v.AsString() != sanitize.Text(v.AsString()) {
				t.Errorf("%q %s: %d bytes, or not sanitised", s.Name, k, len(v.AsString()))
			}
		}
	}
	if results == 0 {
		t.Fatal("no tool content with Content")
	}
}

// TestHostileStringsSanitised: terminal escapes in an event never reach
// an attribute, and a huge line is capped.
func TestHostileStringsSanitised(t *testing.T) {
	huge := strings.Repeat("x", 10000)
	raw := fmt.Sprintf(`{"kind":"MessageEvent","id":"m1","timestamp":"2026-01-01T00:00:00","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"\u001b]52;c;SGVsbG8=\u0007hi %s"}]}}`, huge)
	ev, err := model.Decode([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	spans, _ := spansOf(t, conversation{"hostile", []model.Event{ev}}, Options{Content: true})
	for _, s := range spans {
		for _, kv := range s.Attributes {
			v := kv.Value.String()
			if strings.ContainsAny(v, "\x1b\x07") || len(v) > ContentCap {
				t.Errorf("%q %s: %q…", s.Name, kv.Key, v[:min(len(v), 40)])
			}
		}
	}
}

// TestRejectionsErrorsAndEvents: a rejected action's span is marked
// rejected (not an error); an agent error ends its tool span with error
// status; a conversation error is an exception event and makes the root
// an error; status changes are span events.
func TestRejectionsErrorsAndEvents(t *testing.T) {
	raws := []string{
		`{"id":"u1","timestamp":"2026-01-01T00:00:00","source":"user","kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"text","text":"go"}]}}`,
		`{"id":"a1","timestamp":"2026-01-01T00:00:01","source":"agent","kind":"ActionEvent","tool_name":"terminal","tool_call_id":"c1","llm_response_id":"r1","security_risk":"HIGH","action":{"kind":"TerminalAction","command":"rm -rf /"}}`,
		`{"id":"s1","timestamp":"2026-01-01T00:00:02","source":"environment","kind":"ConversationStateUpdateEvent","key":"execution_status","value":"waiting_for_confirmation"}`,
		`{"id":"x1","timestamp":"2026-01-01T00:00:03","source":"user","kind":"UserRejectObservation","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","rejection_reason":"not that"}`,
		`{"id":"a2","timestamp":"2026-01-01T00:00:04","source":"agent","kind":"ActionEvent","tool_name":"terminal","tool_call_id":"c2","llm_response_id":"r2","action":{"kind":"TerminalAction","command":"ls"}}`,
		`{"id":"e1","timestamp":"2026-01-01T00:00:05","source":"environment","kind":"AgentErrorEvent","tool_name":"terminal","tool_call_id":"c2","error":"A restart occurred"}`,
		`{"id":"e2","timestamp":"2026-01-01T00:00:06","source":"environment","kind":"ConversationErrorEvent","code":"MaxIterationsReached","detail":"limit"}`,
	}
	var evs []model.Event
	for _, r := range raws {
		ev, err := model.Decode([]byte(r))
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	spans, _ := spansOf(t, conversation{"edge", evs}, Options{})
	byName := map[string]tracetest.SpanStub{}
	var events []string
	for _, s := range spans {
		if v, _ := attr(s, "gen_ai.tool.call.id"); v.AsString() != "" {
			byName[v.AsString()] = s
		} else {
			byName[s.Name] = s
		}
		for _, e := range s.Events {
			events = append(events, s.Name+": "+e.Name)
		}
	}
	if r, _ := attr(byName["c1"], attrRejected); !r.AsBool() || byName["c1"].Status.Code == codes.Error {
		t.Errorf("rejected action: rejected=%v status %v", r.AsBool(), byName["c1"].Status)
	}
	if s := byName["c2"].Status; s.Code != codes.Error || !strings.Contains(s.Description, "restart") {
		t.Errorf("agent error: status %+v", s)
	}
	if root := byName["invoke_agent "+AgentName]; root.Status.Code != codes.Error {
		t.Errorf("root status %+v after a conversation error", root.Status)
	}
	got := strings.Join(events, "\n")
	for _, want := range []string{"user_turn: execution_status", "user_turn: confirmation_requested", "exception", "c1: rejected"} {
		want = strings.Replace(want, "c1:", byName["c1"].Name+":", 1)
		if !strings.Contains(got, want) {
			t.Errorf("no span event %q in:\n%s", want, got)
		}
	}
}
