package main

import (
	"encoding/json"

	"ohwatch/client/files"
	"ohwatch/model"
)

// teeRecorder writes every event of the feed to rec as it passes (one file
// per persisted event; the latest full_state becomes base_state.json) and
// hands the batches on unchanged. A write failure becomes a warning in the
// batch, once: the watch goes on, and the user knows the recording stopped.
func teeRecorder(in <-chan model.Batch, rec *files.Recorder) <-chan model.Batch {
	out := make(chan model.Batch)
	go func() {
		defer close(out)
		failed := false
		for b := range in {
			if !failed {
				if err := recordBatch(rec, b.Events); err != nil {
					failed = true
					b.Warnings = append(b.Warnings, "recording stopped: "+err.Error())
				}
			}
			out <- b
		}
	}()
	return out
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
