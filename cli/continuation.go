package cli

import (
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// continuationText is the agent's reply in a fork that has nothing recorded
// to go on with: it says it is made up.
const continuationText = "Nothing was recorded after this point, so this reply is generated: " +
	"a fork of a replayed conversation goes on only as far as its recording did."

// generatedContinuation is what a fork at the last event of a served
// recording does once run (serve.Options.Continue; the server says running
// itself): one LLM call, a reply that says it is made up, finished. Built
// by the generator, so it reads like any agent-server's events.
func generatedContinuation(at time.Time) []model.Event {
	b := gen.NewBuilder(at.UnixNano(), at, gen.DefaultEnvironment())
	r := b.CallLLM(1500*time.Millisecond, 48, "", "")
	raws := [][]byte{b.Stats(), b.AgentMessage(r, continuationText), b.Status(model.StatusFinished)}
	out := make([]model.Event, 0, len(raws))
	for _, raw := range raws {
		if ev, err := model.Decode(raw); err == nil {
			out = append(out, ev)
		}
	}
	return out
}
