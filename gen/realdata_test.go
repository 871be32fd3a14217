package gen

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/upstream"
)

// realEvents returns every recorded upstream event, by file name.
func realEvents(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range upstream.Trajectories(t) {
		for _, f := range upstream.EventPaths(t, dir) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(dir)+"/"+filepath.Base(f)] = bytes.TrimSpace(data)
		}
	}
	if len(out) == 0 {
		t.Fatal("no recorded events")
	}
	return out
}

// reencode walks raw token by token and writes it back with this
// package's writers; for upstream's bytes to come back unchanged, string
// escaping must match pydantic's exactly.
func reencode(t *testing.T, raw []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []byte
	// Each stack entry is the count of items written in an open container
	// and whether it is an object (whose items alternate key, value).
	type frame struct {
		n   int
		obj bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			out = append(out, byte(d))
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.obj && top.n%2 == 1:
				out = append(out, ':')
			case top.n > 0:
				out = append(out, ',')
			}
			top.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			out = append(out, byte(v))
			stack = append(stack, frame{obj: v == '{'})
		case string:
			out = jsonx.AppendString(out, v, 0)
		case json.Number:
			out = append(out, v...)
		case bool:
			out = append(out, []byte(map[bool]string{true: "true", false: "false"}[v])...)
		case nil:
			out = append(out, "null"...)
		}
	}
}

func TestStringEscapingMatchesUpstream(t *testing.T) {
	for name, raw := range realEvents(t) {
		if got := reencode(t, raw); !bytes.Equal(got, raw) {
			i := 0
			for i < len(got) && i < len(raw) && got[i] == raw[i] {
				i++
			}
			t.Errorf("%s: re-encoding differs at byte %d: %q vs %q", name, i,
				got[i:min(i+40, len(got))], raw[i:min(i+40, len(raw))])
		}
	}
}

// TestToolArgumentsMatchUpstream re-creates the tool_call arguments of real
// actions whose arguments are all strings: Python's json.dumps layout.
func TestToolArgumentsMatchUpstream(t *testing.T) {
	checked := 0
	for name, raw := range realEvents(t) {
		var ev struct {
			ToolCall *struct {
				Arguments string `json:"arguments"`
			} `json:"tool_call"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil || ev.ToolCall == nil {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(ev.ToolCall.Arguments))
		var kv []string
		allStrings := true
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		for dec.More() {
			k, _ := dec.Token()
			v, err := dec.Token()
			s, ok := v.(string)
			if err != nil || !ok {
				allStrings = false
				break
			}
			kv = append(kv, k.(string), s)
		}
		if !allStrings {
			continue
		}
		checked++
		if got := ToolArgs(kv...); got != ev.ToolCall.Arguments {
			t.Errorf("%s:\n got %s\nwant %s", name, got, ev.ToolCall.Arguments)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d actions checked", checked)
	}
}

func TestTimestampsMatchUpstream(t *testing.T) {
	for name, raw := range realEvents(t) {
		var ev struct {
			Timestamp string `json:"timestamp"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse("2006-01-02T15:04:05.999999", ev.Timestamp)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := string(appendTimestamp(nil, at)); got != ev.Timestamp {
			t.Errorf("%s: %s, want %s", name, got, ev.Timestamp)
		}
	}
	whole := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if got := string(appendTimestamp(nil, whole)); got != "2026-01-02T03:04:05" {
		t.Errorf("whole second: %s (Python drops a zero fraction)", got)
	}
}

// keyOrder returns the keys of the JSON object raw, in order.
func keyOrder(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// shapeKey names an event by its kind and nested kind.
func shapeKey(t *testing.T, raw []byte) (string, map[string]json.RawMessage) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var kind string
	_ = json.Unmarshal(m["kind"], &kind)
	for _, nested := range []string{"action", "observation"} {
		if inner, ok := m[nested]; ok {
			var k struct {
				Kind string `json:"kind"`
			}
			_ = json.Unmarshal(inner, &k)
			kind += "/" + k.Kind
		}
	}
	if kind == "MessageEvent" {
		var src string
		_ = json.Unmarshal(m["source"], &src)
		kind += "/" + src
	}
	return kind, m
}

// TestFieldOrderMatchesUpstream compares, for every shape of event both
// the recordings and the generator have, the order of the fields they
// share, at the top level and inside action, observation and llm_message.
func TestFieldOrderMatchesUpstream(t *testing.T) {
	real := map[string][]byte{}
	for _, raw := range realEvents(t) {
		k, _ := shapeKey(t, raw)
		real[k] = raw
	}
	compared := map[string]bool{}
	for _, raw := range collect(t, Options{Events: 1500, Seed: 3}) {
		k, m := shapeKey(t, raw)
		want, ok := real[k]
		if !ok || compared[k] {
			continue
		}
		compared[k] = true
		_, wm := shapeKey(t, want)
		check := func(what string, got, want []byte) {
			g, w := keyOrder(t, got), keyOrder(t, want)
			var gs, ws []string
			for _, key := range g {
				if slices.Contains(w, key) {
					gs = append(gs, key)
				}
			}
			for _, key := range w {
				if slices.Contains(g, key) {
					ws = append(ws, key)
				}
			}
			if !slices.Equal(gs, ws) {
				t.Errorf("%s %s: field order %v, upstream %v", k, what, gs, ws)
			}
		}
		check("event", raw, want)
		for _, nested := range []string{"action", "observation", "llm_message", "tool_call"} {
			if m[nested] != nil && wm[nested] != nil && m[nested][0] == '{' && wm[nested][0] == '{' {
				check(nested, m[nested], wm[nested])
			}
		}
	}
	for _, want := range []string{"SystemPromptEvent", "MessageEvent/user", "MessageEvent/agent",
		"ActionEvent/TerminalAction", "ObservationEvent/TerminalObservation", "ActionEvent/TaskTrackerAction",
		"ObservationEvent/TaskTrackerObservation", "ActionEvent/FinishAction", "ObservationEvent/FinishObservation",
		"ActionEvent/FileEditorAction", "ObservationEvent/FileEditorObservation"} {
		if !compared[want] {
			t.Errorf("%s was not compared", want)
		}
	}
}
