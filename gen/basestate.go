package gen

import "ohwatch/internal/jsonx"

// BaseState is the conversation's base_state.json as the agent-server
// (SDK 1.43: ConversationState.model_dump_json(exclude_none=True), the
// fields in its order) writes it once the events so far have happened:
// compact JSON without nulls, the agent's configuration with its key masked, the current
// execution status, HEAD, and the full Metrics lists of every LLM call
// (which needs KeepCalls; without it the lists are empty).
func (b *Builder) BaseState() []byte {
	buf := make([]byte, 0, 4096+b.callCount()*420)
	buf = append(buf, '{')
	buf = appendStringField(buf, "id", b.convID)
	buf = appendKey(buf, "agent")
	buf = append(buf, '{')
	buf = appendKey(buf, "llm")
	buf = appendLLMConfig(buf, b.env.Model, "agent")
	buf = append(buf, `,"tools":[{"name":"terminal","params":{}},{"name":"file_editor","params":{}},{"name":"task_tracker","params":{}}]`...)
	buf = append(buf, `,"mcp_config":{},"include_default_tools":["FinishTool","ThinkTool"]`...)
	buf = append(buf, `,"system_prompt_filename":"system_prompt.j2","security_policy_filename":"security_policy.j2"`...)
	buf = append(buf, `,"system_prompt_kwargs":{"llm_security_analyzer":true}`...)
	buf = appendKey(buf, "condenser")
	buf = append(buf, '{')
	buf = appendKey(buf, "llm")
	buf = appendLLMConfig(buf, b.env.CondenserModel, "condenser")
	buf = append(buf, `,"max_size":240,"keep_first":4,"minimum_progress":0.1,"hard_context_reset_max_retries":5,"hard_context_reset_context_scaling":0.8,"kind":"LLMSummarizingCondenser"}`...)
	buf = append(buf, `,"tool_concurrency_limit":1,"kind":"Agent"}`...)
	buf = appendKey(buf, "workspace")
	buf = append(buf, '{')
	buf = appendStringField(buf, "working_dir", b.env.WorkingDir)
	buf = append(buf, `,"kind":"LocalWorkspace"}`...)
	buf = appendStringField(buf, "persistence_dir", b.persistenceDir())
	buf = append(buf, `,"max_iterations":500,"stuck_detection":true`...)
	buf = appendStringField(buf, "execution_status", b.status)
	buf = appendKey(buf, "confirmation_policy")
	switch b.env.ConfirmationPolicy {
	case "ConfirmRisky":
		buf = append(buf, `{"threshold":"HIGH","confirm_unknown":true,"kind":"ConfirmRisky"}`...)
	default:
		buf = append(buf, `{"kind":`...)
		buf = jsonx.AppendString(buf, b.env.ConfirmationPolicy, 0)
		buf = append(buf, '}')
	}
	buf = append(buf, `,"security_analyzer":{"kind":"LLMSecurityAnalyzer"}`...)
	buf = append(buf, `,"activated_knowledge_skills":[],"activated_path_rules":[],"invoked_skills":[],"blocked_actions":{},"blocked_messages":{}`...)
	if b.lastUserID != "" {
		buf = appendStringField(buf, "last_user_message_id", b.lastUserID)
	}
	if b.head != "" {
		buf = appendStringField(buf, "leaf_event_id", b.head)
	}
	buf = append(buf, `,"head_is_empty":false`...)
	buf = appendKey(buf, "stats")
	buf = b.appendStats(buf, true)
	buf = append(buf, `,"secret_registry":{"secret_sources":{}},"tags":{},"agent_state":{}}`...)
	return buf
}

// callCount is the number of LLM calls kept for the Metrics lists.
func (b *Builder) callCount() int {
	n := 0
	for _, u := range b.usages {
		n += len(u.calls)
	}
	return n
}

// appendLLMConfig appends an LLM's configuration as base_state.json holds
// it; the API key is always the masked SecretStr.
func appendLLMConfig(dst []byte, model, usageID string) []byte {
	dst = append(dst, '{')
	dst = appendStringField(dst, "model", model)
	dst = append(dst, `,"api_key":"**********","auth_type":"api_key","base_url":"https://llm-proxy.app.all-hands.dev/"`...)
	dst = append(dst, `,"openrouter_site_url":"https://docs.all-hands.dev/","openrouter_app_name":"OpenHands"`...)
	dst = append(dst, `,"num_retries":5,"retry_multiplier":8.0,"retry_min_wait":8,"retry_max_wait":64,"timeout":300`...)
	dst = append(dst, `,"max_message_chars":30000,"max_input_tokens":200000,"max_output_tokens":64000`...)
	dst = append(dst, `,"api_mode":"auto","capability_overrides":{},"stream":false`...)
	dst = append(dst, `,"drop_params":true,"modify_params":true,"disable_stop_word":false,"caching_prompt":true`...)
	dst = append(dst, `,"log_completions":false,"log_completions_folder":"logs/completions","native_tool_calling":true`...)
	dst = append(dst, `,"reasoning_effort":"high","enable_encrypted_reasoning":true,"prompt_cache_retention":"24h"`...)
	dst = append(dst, `,"extended_thinking_budget":200000`...)
	dst = appendStringField(dst, "usage_id", usageID)
	return append(dst, `,"litellm_extra_body":{},"is_subscription":false}`...)
}
