package conversation

import ()

// readsARecording names the golden scenarios built on a recording: their
// twins on the project's own recordings have goldens of their own.
var readsARecording = map[string]bool{
	"replay_start": true, "midrun_task_plan": true, "waiting_for_confirmation": true, "error": true,
	"inspector_terminal_action": true, "attention_pinned_waiting": true, "pinned_new_events": true,
	"gap_times": true, "raw_json_wrapped": true, "raw_json_sideways": true, "markdown_message": true,
	"export_path_prompt": true, "long_conversation_times": true,
}

// readers keeps the scenarios that read a recording.
func readers(scs []scenario) []scenario {
	var out []scenario
	for _, sc := range scs {
		if readsARecording[sc.name] {
			out = append(out, sc)
		}
	}
	return out
}
