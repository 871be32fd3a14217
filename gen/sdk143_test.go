package gen

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// objectKeys lists the keys of a JSON object in the order written.
func objectKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %.80s", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestObservationsCarryExtendedContent holds every ObservationEvent to SDK
// 1.43's form: its pydantic round trip (Event.model_validate_json, then
// model_dump_json(exclude_none=True) as EventLog writes it) adds
// "extended_content":[] after action_id, so a recording of 1.43 has it.
func TestObservationsCarryExtendedContent(t *testing.T) {
	n := 0
	for _, raw := range collect(t, Options{Events: 3000, Seed: 9, Branches: 3}) {
		var ev struct {
			Kind     string           `json:"kind"`
			Extended *json.RawMessage `json:"extended_content"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind != "ObservationEvent" {
			continue
		}
		n++
		keys := objectKeys(t, raw)
		if ev.Extended == nil || string(*ev.Extended) != "[]" || !slices.Equal(keys[len(keys)-3:], []string{"action_id", "extended_content", "kind"}) {
			t.Fatalf("observation without SDK 1.43's extended_content: keys %v", keys)
		}
	}
	if n == 0 {
		t.Fatal("no observation generated")
	}
}

// TestBaseStateHasSDK143Fields holds base_state.json to the fields SDK
// 1.43.1 writes, in its order (ConversationState.model_dump_json of the
// same state; the LLM's fields as openhands-sdk llm/llm.py declares them).
// Computed once with the SDK on a generated conversation: the only
// difference left is the masked api_key, which the SDK's own round trip
// drops because it reads "**********" back as no key.
func TestBaseStateHasSDK143Fields(t *testing.T) {
	raw := BaseState(Options{Events: 500, Seed: 9})
	state := []string{"id", "agent", "workspace", "persistence_dir", "max_iterations", "stuck_detection", "execution_status",
		"confirmation_policy", "security_analyzer", "activated_knowledge_skills", "activated_path_rules", "invoked_skills",
		"blocked_actions", "blocked_messages", "last_user_message_id", "leaf_event_id", "head_is_empty", "stats",
		"secret_registry", "tags", "agent_state"}
	if got := objectKeys(t, raw); !slices.Equal(got, state) {
		t.Errorf("base state keys\n got %v\nwant %v", got, state)
	}
	var doc struct {
		Agent struct {
			LLM json.RawMessage `json:"llm"`
		} `json:"agent"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	agent := objectKeys(t, raw[bytes.Index(raw, []byte(`"agent":`))+len(`"agent":`):])
	wantAgent := []string{"llm", "tools", "mcp_config", "include_default_tools", "system_prompt_filename",
		"security_policy_filename", "system_prompt_kwargs", "condenser", "tool_concurrency_limit", "kind"}
	if !slices.Equal(agent, wantAgent) {
		t.Errorf("agent keys\n got %v\nwant %v", agent, wantAgent)
	}
	llm := []string{"model", "api_key", "auth_type", "base_url", "openrouter_site_url", "openrouter_app_name", "num_retries",
		"retry_multiplier", "retry_min_wait", "retry_max_wait", "timeout", "max_message_chars", "max_input_tokens",
		"max_output_tokens", "api_mode", "capability_overrides", "stream", "drop_params", "modify_params",
		"disable_stop_word", "caching_prompt", "log_completions", "log_completions_folder", "native_tool_calling",
		"reasoning_effort", "enable_encrypted_reasoning", "prompt_cache_retention", "extended_thinking_budget",
		"usage_id", "litellm_extra_body", "is_subscription"}
	if got := objectKeys(t, doc.Agent.LLM); !slices.Equal(got, llm) {
		t.Errorf("llm keys\n got %v\nwant %v", got, llm)
	}
}
