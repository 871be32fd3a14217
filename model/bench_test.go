package model

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// mixedEvents builds a realistic mix of events: mostly small actions,
// observations with outputs of a few KB, stats updates, and an occasional
// big file view, escaped and multi-line as real outputs are.
func mixedEvents(n int) [][]byte {
	out := make([][]byte, 0, n)
	output := strings.Repeat(`drwxr-xr-x  5 user user 4096 Feb 18 14:52 \u001b[01;34m.cache\u001b[0m\n`, 40)
	line := `    func example() { return \"value\" }\n`
	for i := range n {
		var s string
		switch i % 6 {
		case 0:
			s = fmt.Sprintf(`{"id":"a%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:22.718970","source":"agent","thought":[{"type":"text","text":"Let me look at the directory listing to find the project."}],"reasoning_content":"The user wants me to explore.","thinking_blocks":[],"action":{"command":"ls -la /home/user","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"toolu_%07d","tool_call":{"id":"toolu_%07d","name":"terminal","arguments":"{\"command\": \"ls -la\", \"security_risk\": \"LOW\"}","origin":"completion"},"llm_response_id":"chatcmpl-%07d","security_risk":"LOW","summary":"List the home directory","kind":"ActionEvent"}`, i, i, i, i)
		case 1:
			s = fmt.Sprintf(`{"id":"o%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:22.906445","source":"environment","tool_name":"terminal","tool_call_id":"toolu_%07d","observation":{"content":[{"cache_prompt":false,"type":"text","text":"%s"}],"is_error":false,"command":"ls -la","exit_code":0,"timeout":false,"metadata":{"exit_code":0,"pid":-1,"working_dir":"/home/user","prefix":"","suffix":"\n[The command completed with exit code 0.]"},"kind":"TerminalObservation"},"action_id":"a%07d-0000-4000-8000-000000000000","kind":"ObservationEvent"}`, i, i, output, i)
		case 2:
			s = fmt.Sprintf(`{"id":"s%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:23","source":"environment","key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"litellm_proxy/claude","accumulated_cost":%d.0123,"max_budget_per_task":null,"accumulated_token_usage":{"model":"litellm_proxy/claude","prompt_tokens":35895,"completion_tokens":960,"cache_read_tokens":1115,"cache_write_tokens":0,"reasoning_tokens":0,"context_window":200000,"per_turn_token":35484,"response_id":""}}}},"kind":"ConversationStateUpdateEvent"}`, i, i)
		case 3:
			s = fmt.Sprintf(`{"id":"f%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:24.1","source":"environment","tool_name":"file_editor","tool_call_id":"toolu_f%07d","observation":{"content":[{"type":"text","text":"Here's the result of running cat -n:\n%s"}],"is_error":false,"command":"view","path":"/src/main.go","prev_exist":true,"kind":"FileEditorObservation"},"action_id":"x","kind":"ObservationEvent"}`, i, i, strings.Repeat(line, 2000/(1+i%7)))
		case 4:
			s = fmt.Sprintf(`{"id":"m%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:24.857144","source":"agent","llm_message":{"role":"assistant","content":[{"cache_prompt":false,"type":"text","text":"I looked at the project.\n\n**Summary:** the build passes and the tests run in 2s. Next I will add the feature you asked for."}],"thinking_blocks":[]},"llm_response_id":"chatcmpl-%07d","activated_skills":[],"extended_content":[],"kind":"MessageEvent"}`, i, i)
		default:
			s = fmt.Sprintf(`{"id":"e%07d-0000-4000-8000-000000000000","timestamp":"2026-01-27T03:56:25","source":"environment","key":"execution_status","value":"running","kind":"ConversationStateUpdateEvent"}`, i)
		}
		out = append(out, []byte(s))
	}
	return out
}

func benchmarkDecode(b *testing.B, events [][]byte) {
	var total int64
	for _, e := range events {
		total += int64(len(e))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range events {
			if _, err := Decode(e); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	b.Run("recorded", func(b *testing.B) {
		var events [][]byte
		for _, raw := range recordedEvents(b) {
			events = append(events, raw)
		}
		benchmarkDecode(b, events)
	})
	b.Run("mixed", func(b *testing.B) {
		benchmarkDecode(b, mixedEvents(600))
	})
}

// BenchmarkDecodeResident reports what a decoded log keeps beyond its raw
// bytes: resident-B/raw-B is the heap held by the Events and their bodies
// per byte of JSON (the raw bytes themselves are excluded, being owned by
// the caller before Decode). The target is well under 1, so a loaded log
// stays under twice its JSON size.
func BenchmarkDecodeResident(b *testing.B) {
	benchmarkResident(b, mixedEvents(3000))
}

// benchmarkResident decodes events into a log on every iteration and
// reports the heap the log holds per byte of raw JSON (resident-B/raw-B),
// measured between two forced collections.
func benchmarkResident(b *testing.B, events [][]byte) {
	var rawBytes int64
	for _, e := range events {
		rawBytes += int64(len(e))
	}
	b.SetBytes(rawBytes)
	var ratio float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		log := make([]Event, 0, len(events))
		for _, e := range events {
			ev, err := Decode(e)
			if err != nil {
				b.Fatal(err)
			}
			log = append(log, ev)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		ratio = float64(after.HeapAlloc-before.HeapAlloc) / float64(rawBytes)
		runtime.KeepAlive(log)
	}
	b.ReportMetric(ratio, "resident-B/raw-B")
}
