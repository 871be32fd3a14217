package otel

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// otlpDoc is the part of an OTLP/JSON request the tests read.
type otlpDoc struct {
	ResourceSpans []struct {
		ScopeSpans []struct {
			Spans []struct {
				TraceID      string `json:"traceId"`
				SpanID       string `json:"spanId"`
				ParentSpanID string `json:"parentSpanId"`
				Name         string `json:"name"`
				Kind         int    `json:"kind"`
				Attributes   []struct {
					Key   string `json:"key"`
					Value struct {
						StringValue string `json:"stringValue"`
					} `json:"value"`
				} `json:"attributes"`
			} `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

// TestExportIsOTLPJSON: one request per line, ids in hex, enums as
// numbers, the same bytes every time.
func TestExportIsOTLPJSON(t *testing.T) {
	log := reducer.NewLog(nil, 0)
	log.Append(testevents.Generated(t, 3000, 5)...)
	var a, b bytes.Buffer
	if err := Export(&a, log, "conv-x", "", "v", Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Export(&b, log, "conv-x", "", "v", Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two exports of the same log differ")
	}
	lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d lines for a 3000-event conversation: want more than one request", len(lines))
	}
	spans := 0
	for _, l := range lines {
		var doc otlpDoc
		if err := json.Unmarshal([]byte(l), &doc); err != nil {
			t.Fatal(err)
		}
		for _, rs := range doc.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					spans++
					if s.TraceID != TraceID("conv-x").String() || !isHex(s.SpanID, 16) || (s.ParentSpanID != "" && !isHex(s.ParentSpanID, 16)) {
						t.Fatalf("ids %q %q %q", s.TraceID, s.SpanID, s.ParentSpanID)
					}
					if s.Kind == 0 {
						t.Fatalf("span %q without a kind", s.Name)
					}
				}
			}
		}
	}
	if spans == 0 {
		t.Fatal("no span")
	}
}

func isHex(s string, n int) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == n
}

// TestTraceIDIsTheConversationID: a uuid conversation id is the trace id
// itself, dashed or not; other ids hash to a stable one.
func TestTraceIDIsTheConversationID(t *testing.T) {
	if got := TraceID("7de03109-ff0b-4557-8254-f2c110bed84d").String(); got != "7de03109ff0b45578254f2c110bed84d" {
		t.Fatalf("dashed uuid: %s", got)
	}
	if TraceID("7de03109ff0b45578254f2c110bed84d") != TraceID("7de03109-ff0b-4557-8254-f2c110bed84d") {
		t.Fatal("dashed and undashed differ")
	}
	if a, b := TraceID("simple_echo"), TraceID("simple_echo"); a != b || !a.IsValid() || a == TraceID("other") {
		t.Fatal("hashed ids are not stable and distinct")
	}
}

// FuzzHexIDs: whatever an attribute holds (quotes, backslashes, text that
// looks like an id member), the ids are rewritten as hex and nothing
// else changes.
func FuzzHexIDs(f *testing.F) {
	f.Add(`"traceId":"AAAA"`, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(`\"spanId\": \"x\\"`, []byte{0xff, 0, 0, 0, 0, 0, 0, 1})
	f.Add("plain", []byte{9, 9, 9, 9, 9, 9, 9, 9})
	f.Add("\xd8", []byte{1, 1, 1, 1, 1, 1, 1, 1})
	f.Add("a\xed\xa0\x80b", []byte{2, 2, 2, 2, 2, 2, 2, 2})
	f.Fuzz(func(t *testing.T, value string, id []byte) {
		if len(id) != 8 {
			return
		}
		tid := append(append([]byte{}, id...), id...)
		rs := []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{
			TraceId: tid, SpanId: id, ParentSpanId: id, Name: value,
			Attributes: []*commonpb.KeyValue{{Key: value, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: value}}}},
		}}}}}}
		b, err := MarshalJSON(rs)
		if err != nil {
			t.Fatal(err)
		}
		var doc otlpDoc
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("invalid JSON: %v\n%s", err, b)
		}
		s := doc.ResourceSpans[0].ScopeSpans[0].Spans[0]
		if s.TraceID != hex.EncodeToString(tid) || s.SpanID != hex.EncodeToString(id) || s.ParentSpanID != hex.EncodeToString(id) {
			t.Fatalf("ids %q %q %q", s.TraceID, s.SpanID, s.ParentSpanID)
		}
		// Invalid UTF-8 is written as U+FFFD, a byte each, as
		// encoding/json writes it; nothing else changes.
		want := replaceInvalidBytes(value)
		if s.Name != want || s.Attributes[0].Key != want || s.Attributes[0].Value.StringValue != want {
			t.Fatalf("a string changed: %q", value)
		}
	})
}

// replaceInvalidBytes is s with each byte that is not part of valid UTF-8
// replaced by U+FFFD.
func replaceInvalidBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// TestExportWithPendingActionsIsStable: a recording that ends with actions
// still waiting ends their open tool spans as unfinished, in the same order
// every time, so its export is byte for byte the same.
func TestExportWithPendingActionsIsStable(t *testing.T) {
	// The first prefix of a generated conversation that ends with two
	// actions still waiting for their results.
	evs := testevents.Generated(t, 2000, 7)
	log := reducer.NewLog(nil, 0)
	for _, ev := range evs {
		log.Append(ev)
		if len(log.Latest().Pending) >= 2 {
			break
		}
	}
	if len(log.Latest().Pending) < 2 {
		t.Fatal("no prefix ends with two pending actions")
	}
	var first []byte
	for range 5 {
		var buf bytes.Buffer
		if err := Export(&buf, log, "c", "", "v", Options{}); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = buf.Bytes()
			// protojson varies its whitespace from one binary to another.
			if !regexp.MustCompile(`"ohwatch\.unfinished",\s*"value":\s*\{\s*"boolValue":\s*true`).Match(first) {
				t.Fatal("no unfinished span")
			}
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Fatal("exports differ")
		}
	}
}

// FuzzExport: whatever events arrive (any bytes, one event per line), the
// builder never panics and the export is valid JSON, with no terminal
// control character in it.
func FuzzExport(f *testing.F) {
	for _, ev := range testevents.Twin(f, "confirmation_mode") {
		f.Add(string(ev.Raw))
	}
	f.Add(`{"kind":"ActionEvent","id":"a","tool_call_id":"t","action":{"kind":"TerminalAction","command":"\u001b[2J"}}` + "\n" +
		`{"kind":"ObservationEvent","id":"o","tool_call_id":"t","observation":{"is_error":true,"content":[{"text":"\u009b31m"}]}}`)
	f.Fuzz(func(t *testing.T, in string) {
		log := reducer.NewLog(nil, 0)
		for _, l := range strings.Split(in, "\n") {
			if ev, err := model.Decode([]byte(l)); err == nil {
				log.Append(ev)
			}
		}
		var buf bytes.Buffer
		if err := Export(&buf, log, in, "", "v", Options{Content: true}); err != nil {
			if strings.ToValidUTF8(in, "") != in {
				return // protojson refuses invalid UTF-8 that reached an id
			}
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("invalid JSON line: %.200s", l)
			}
		}
		if strings.ContainsAny(buf.String(), "\x1b\x07") {
			t.Fatal("a control character reached the export")
		}
	})
}
