package conversation

import (
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// BenchmarkRenderEvent renders every event of a real recording for the
// inspector (message text left to the markdown renderer, as the inspector
// does): the work of opening the inspector before any markdown.
func BenchmarkRenderEvent(b *testing.B) {
	log := tuitest.Recorded(b, fixtures.Critic)
	s := theme.Plain()
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		renderEventMarkdown(log.Event(k%log.Len()), k, s, nil, 0, true)
		k++
	}
}
