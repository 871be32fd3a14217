package main

import (
	"context"
	"encoding/json"
	"sync"

	"ohwatch/client/files"
	"ohwatch/model"
)

// teeRecorder writes every event of the feed to rec as it passes (one file
// per persisted event; the latest full_state becomes base_state.json) and
// hands the batches on unchanged. A write failure becomes a warning in the
// batch, once: the watch goes on, and the user knows the recording stopped.
// The returned wait function blocks until the recorder goroutine is done
// (ctx ended or the feed closed), so rec can be closed safely after it.
func teeRecorder(ctx context.Context, in <-chan model.Batch, rec *files.Recorder) (<-chan model.Batch, func()) {
	out := make(chan model.Batch)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(out)
		failed := false
		for {
			var b model.Batch
			var ok bool
			select {
			case b, ok = <-in:
				if !ok {
					return
				}
			case <-ctx.Done():
				return
			}
			if !failed {
				if err := recordBatch(rec, b.Events); err != nil {
					failed = true
					b.Warnings = append(b.Warnings, "recording stopped: "+err.Error())
				}
			}
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, wg.Wait
}

func recordBatch(rec *files.Recorder, events []model.Event) error {
	for _, ev := range events {
		if su, ok := ev.Body.(*model.StateUpdate); ok && su.FullState {
			var snap struct {
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(ev.Raw, &snap); err == nil && len(snap.Value) > 0 {
				if err := rec.WriteBaseState(snap.Value); err != nil {
					return err
				}
			}
		}
		// Record itself skips the live-only kinds (full_state, deltas).
		if err := rec.Record(ev); err != nil {
			return err
		}
	}
	return nil
}
