package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"ohwatch/internal/jsonx"
)

// statsSnapshot is a `stats` update's value as the SDK writes it.
const statsSnapshot = `{"usage_to_metrics":{"agent":{"model_name":"litellm_proxy/anthropic/claude-sonnet-4-5-20250929","accumulated_cost":1108.778000699996,"max_budget_per_task":null,"accumulated_token_usage":{"model":"litellm_proxy/anthropic/claude-sonnet-4-5-20250929","prompt_tokens":2622026097,"completion_tokens":8613607,"cache_read_tokens":2566058124,"cache_write_tokens":55803386,"reasoning_tokens":0,"context_window":200000,"per_turn_token":89324,"response_id":""}},"condenser":{"model_name":"litellm_proxy/anthropic/claude-haiku-4-5-20251001","accumulated_cost":41.30284700000001,"max_budget_per_task":null,"accumulated_token_usage":{"model":"litellm_proxy/anthropic/claude-haiku-4-5-20251001","prompt_tokens":38226192,"completion_tokens":615331,"cache_read_tokens":0,"cache_write_tokens":0,"reasoning_tokens":0,"context_window":200000,"per_turn_token":73170,"response_id":""}}}}`

// statsVariants are values fastStats must read exactly as readStats does,
// or decline: spacing, escapes, nulls, lists, wrong types, duplicates,
// numbers out of range, unknown and nested members, broken JSON.
var statsVariants = []string{
	statsSnapshot,
	strings.ReplaceAll(strings.ReplaceAll(statsSnapshot, ":", ": "), ",", ", "),
	strings.ReplaceAll(statsSnapshot, "usage_to_metrics", "service_to_metrics"),
	"{\n  \"usage_to_metrics\" : {\n \"agent\" :\t{ \"model_name\" : \"m\" , \"accumulated_cost\" : 1e-3 }\r\n }\n}",
	`{"usage_to_metrics":{}}`,
	`{"usage_to_metrics":null}`,
	`{"usage_to_metrics":{"agent":null}}`,
	`{"usage_to_metrics":{"agent":{}}}`,
	`{"usage_to_metrics":{"a\"gent":{"model_name":"m\u00e9\\n"}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":null,"accumulated_cost":null,"accumulated_token_usage":null}}}`,
	`{"usage_to_metrics":{"agent":{"max_budget_per_task":5,"max_budget_per_task":null}}}`,
	`{"usage_to_metrics":{"agent":{"max_budget_per_task":-0.5e2}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_cost":1e999}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_cost":"1"}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_cost":01}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_cost":-}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":5}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":{"prompt_tokens":1.0,"completion_tokens":2.5}}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":{"prompt_tokens":99999999999999999999}}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":{"prompt_tokens":"7"}}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":{"response_id":null,"model":null,"extra":{"x":[1,{"y":null}]}}}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":{"response_id":7}}}}`,
	`{"usage_to_metrics":{"agent":{"accumulated_token_usage":[]}}}`,
	`{"usage_to_metrics":{"agent":{"costs":[],"response_latencies":null,"token_usages":[ ]}}}`,
	`{"usage_to_metrics":{"agent":{"costs":[{"model":"m","cost":1,"timestamp":2}]}}}`,
	`{"usage_to_metrics":{"agent":{"token_usages":[{"prompt_tokens":3}]}}}`,
	`{"usage_to_metrics":{"agent":{"unknown":{"deep":[[[]]]},"model_name":"m"}},"other":[1,2,"x"]}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m"}},"usage_to_metrics":{"agent":{"accumulated_cost":2}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m"},"agent":{"accumulated_cost":2}}}`,
	`{"usage_to_metrics":{"agent":7}}`,
	`{"usage_to_metrics":[1]}`,
	`{"other":1,"usage_to_metrics":{}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m"}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m",}}}`,
	`{"usage_to_metrics":{"agent":{"model_name" "m"}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m` + "\x01" + `"}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"\x"}}}`,
	`{"usage_to_metrics":{"agent":{"model_name":"m"}}}trailing`,
	`{"usage_to_metrics":{"agent":{"accumulated_cost":nul}}}`,
	`{"usage_to_metrics"`,
	`{`,
}

// checkFastStats fails t when fastStats accepts data at i but the general
// way (validate, then readStats) would read it otherwise or refuse it.
func checkFastStats(t testing.TB, data []byte, i int) (accepted bool) {
	t.Helper()
	accepted, problem := fastStatsAgrees(data, i)
	if problem != "" {
		t.Fatal(problem)
	}
	return accepted
}

// fastStatsAgrees reports whether fastStats accepted data at i and, when
// it did, how it disagrees with the general way ("" when it does not).
func fastStatsAgrees(data []byte, i int) (accepted bool, problem string) {
	st, end, ok := fastStats(data, i)
	if !ok {
		return false, ""
	}
	wantEnd, err := jsonx.ValueEnd(data, i, statsDepth-1)
	if err != nil {
		return true, fmt.Sprintf("fastStats accepted %q, which the validator refuses: %v", data, err)
	}
	if end != wantEnd {
		return true, fmt.Sprintf("fastStats ended %q at %d, the validator at %d", data, end, wantEnd)
	}
	var r leanReader
	want := readStats(&r, data[i:end], "value")
	if r.reason != "" {
		return true, fmt.Sprintf("fastStats accepted %q, which readStats calls malformed: %s", data, r.reason)
	}
	if !reflect.DeepEqual(st, want) {
		return true, fmt.Sprintf("fastStats read %q as\n%#v\nreadStats as\n%#v", data, st, want)
	}
	return true, ""
}

func TestFastStatsAgreesWithReadStats(t *testing.T) {
	accepted := 0
	for _, v := range statsVariants {
		if checkFastStats(t, []byte(v), 0) {
			accepted++
		}
		// As the value of an event, decoded whole: the same event either way.
		ev := `{"id":"e","kind":"ConversationStateUpdateEvent","source":"environment","key":"stats","value":` + v + `}`
		fast, fastErr := Decode([]byte(ev))
		slow, slowErr := decodeWithoutFastStats([]byte(ev))
		if (fastErr == nil) != (slowErr == nil) || fastErr != nil && fastErr.Error() != slowErr.Error() {
			t.Fatalf("%s: errors differ: %v / %v", v, fastErr, slowErr)
		}
		if fastErr == nil && !reflect.DeepEqual(fast.Body, slow.Body) || fast.Summary != slow.Summary {
			t.Fatalf("%s: decoded\n%#v\nwithout the fast way\n%#v", v, fast.Body, slow.Body)
		}
	}
	// The SDK's own shapes must take the fast way, or it is never taken.
	for _, v := range statsVariants[:12] {
		if _, _, ok := fastStats([]byte(v), 0); !ok {
			t.Errorf("fastStats declined %s", v)
		}
	}
	if accepted < 15 {
		t.Errorf("fastStats accepted %d variants, want at least 15", accepted)
	}
}

// decodeWithoutFastStats decodes raw the general way only.
func decodeWithoutFastStats(raw []byte) (Event, error) {
	return decodeWith(raw, false, false)
}

func FuzzFastStats(f *testing.F) {
	for _, v := range statsVariants {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, c := range data {
			if c == '{' {
				checkFastStats(t, data, i)
			}
		}
	})
}
