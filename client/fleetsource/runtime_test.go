package fleetsource

import (
	"testing"

	"ohwatch/model"
)

// TestJoinedUpdatesKeepTheRuntime: updates of one conversation joined in a
// window keep what its server last said of its runtime,
// so the fleet's RUNTIME column is not lost to a busy stream.
func TestJoinedUpdatesKeepTheRuntime(t *testing.T) {
	c := newCollector(0)
	ref := model.ConversationRef{Kind: model.SourceServer, Source: "http://h", ID: "a"}
	rt := model.Runtime{Status: "missing"}
	c.add(model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: []model.Event{{ID: "1"}}}})
	c.add(model.FleetUpdate{Ref: ref, Batch: model.Batch{Runtime: &rt}})
	c.add(model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: []model.Event{{ID: "2"}}}})
	if len(c.pending) != 1 || c.pending[0].Batch.Runtime == nil || c.pending[0].Batch.Runtime.Status != "missing" {
		t.Fatalf("joined %+v, want one update with the runtime", c.pending)
	}
}
