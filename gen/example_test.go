package gen_test

import (
	"fmt"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// A test that needs a specific situation scripts it with a Builder: here a
// HIGH-risk command that waits for confirmation.
func ExampleBuilder() {
	b := gen.NewBuilder(7, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), gen.DefaultEnvironment())
	events := [][]byte{b.SystemPrompt(), b.User("Clean the build directory."), b.Status(model.StatusRunning)}
	r := b.CallLLM(2*time.Second, 120, "This deletes files, so it is high risk.", "")
	events = append(events, b.Stats())
	a := b.Terminal(r, "rm -rf build/", 0, "Delete the build directory", gen.RiskHigh)
	events = append(events, a.Raw, b.Status(model.StatusWaitingForConfirmation))
	for _, raw := range events {
		ev, _ := model.Decode(raw)
		fmt.Println(model.KindLabel(ev))
	}
	// Output:
	// SystemPromptEvent
	// MessageEvent
	// ConversationStateUpdateEvent
	// ConversationStateUpdateEvent
	// ActionEvent/TerminalAction
	// ConversationStateUpdateEvent
}

// Events streams a conversation of any size; WriteDir and WriteJSONL
// write the same events to disk.
func ExampleEvents() {
	n := 0
	var first, last model.Event
	for raw := range gen.Events(gen.Options{Events: 1000, Seed: 1}) {
		ev, _ := model.Decode(raw)
		if n == 0 {
			first = ev
		}
		last = ev
		n++
	}
	fmt.Println(n, first.Kind, last.Body.(*model.StateUpdate).ExecutionStatus)
	// Output: 1000 SystemPromptEvent finished
}
