package cloud

import (
	"context"
	"testing"
	"time"
)

// BenchmarkStartAndClose measures the client side of a whole Cloud start —
// create, poll the sandbox, start the conversation, poll the start task,
// delete — against the loopback fake, whose statuses advance on every poll.
func BenchmarkStartAndClose(b *testing.B) {
	f := newFakeCloud(b, testAPIKey)
	cfg := Config{APIKey: testAPIKey, BaseURL: f.srv.URL, Message: "hi", PollInterval: time.Nanosecond}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Start(ctx); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
