package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/upstream"
)

// hostileEvents are crafted events with escapes, wrong types and odd shapes
// that seed FuzzDecode beside the recorded ones.
var hostileEvents = []string{
	`{"kind":"ActionEvent","id":"\u001b]0;x\u0007","source":"\u001b[2Jagent","summary":"\u001b]52;c;Zm9v\u0007run \u202Eevil","action":{"kind":"TerminalAction","command":"ls\r\nrm"}}`,
	`{"kind":"ObservationEvent","observation":{"kind":"TerminalObservation","exit_code":-1,"content":[{"type":"text","text":"\u009b2Jx"}]}}`,
	`{"kind":"ObservationEvent","observation":{"kind":"TaskTrackerObservation","task_list":[{"title":"\ud83d\ude00","status":"done"},{"title":"\ud800","status":7}]}}`,
	`{"kind":"ConversationStateUpdateEvent","key":"full_state","value":{"agent_status":"running","stats":{"service_to_metrics":{"a":{"accumulated_cost":1e400}}}}}`,
	`{"kind":"ConversationStateUpdateEvent","key":"stats","value":{"usage_to_metrics":{"default":null}}}`,
	"{\"kind\":\"ConversationStateUpdateEvent\",\"key\":\"full_state\",\"value\":{\"stats\": { \"usage_to_metrics\" : {\"a\" : { \"costs\" : [ {\"cost\":1,\"model\":\"m\"} , { } , 5 ] ,\n \"token_usages\":[{\"prompt_tokens\":2,\"response_id\":\"r\"}], \"response_latencies\": {} , \"x\":[[1],{\"y\":\"}\"}]}, \"b\" : null } } } }",
	`{"kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"image","image_urls":["data:"]}],"tool_calls":[{}]}}`,
	`{"kind":"Condensation","forgotten_event_ids":["a",null]}`,
	`{"kind":"HookExecutionEvent","exit_code":1.5}`,
	`{"kind":null,"id":null,"timestamp":null}`,
	`{"a":[[[[[[[[[[{}]]]]]]]]]]}`,
	"{\"kind\":\"MessageEvent\",\"id\":\"\xff\xfe\"}",
}

func FuzzDecode(f *testing.F) {
	if upstream.Present(f) {
		for _, raw := range recordedEvents(f) {
			f.Add(raw)
		}
	}
	for _, s := range hostileEvents {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in := bytes.Clone(raw)
		ev, err := Decode(raw)
		if !bytes.Equal(raw, in) {
			t.Fatal("Decode modified its input")
		}
		trimmed := bytes.TrimLeft(in, " \t\r\n")
		isObject := json.Valid(in) && len(trimmed) > 0 && trimmed[0] == '{'
		if (err == nil) != isObject && !errors.Is(err, jsonx.ErrTooDeep) {
			t.Fatalf("Decode error %v, but encoding/json says valid object = %v", err, isObject)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(ev.Raw, in) || len(raw) > 0 && &ev.Raw[0] != &raw[0] {
			t.Fatal("Raw is not the input")
		}
		again, err := Redecode(raw)
		if err != nil {
			t.Fatalf("Redecode: %v", err)
		}
		want := ev
		want.Time = time.Time{}
		if !reflect.DeepEqual(again, want) {
			t.Fatalf("Redecode gives %+v, Decode %+v", again, want)
		}
		checkSafe(t, ev.Summary, false)
		checkSafe(t, ev.Kind, false)
		checkSafe(t, ev.Source, false)
		if ev.Body == nil {
			t.Fatal("nil body")
		}
		_, _ = ev.Detail()
	})
}
