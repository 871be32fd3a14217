package serve

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// TestWaitStatus: WaitStatus returns once the replay has sent the status,
// and fails, naming the status it is at, when its context ends first.
func TestWaitStatus(t *testing.T) {
	t.Parallel()
	srv := New(Options{Speed: 50})
	const id = "0a1b2c3d4e5f40718293a4b5c6d7e8f9"
	srv.Add(id, nil, testevents.Generated(t, 200, 5))
	if _, err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	started, stop := context.WithTimeout(t.Context(), time.Minute)
	defer stop()
	if err := srv.WaitStatus(started, id, model.StatusRunning); err != nil {
		t.Fatal(err)
	}
	var info struct {
		Status string `json:"execution_status"`
	}
	if err := json.Unmarshal(srv.lookup(id).info(), &info); err != nil || info.Status != model.StatusRunning {
		t.Errorf("after WaitStatus the server lists %q (%v)", info.Status, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := srv.WaitStatus(ctx, id, "no such status"); err == nil {
		t.Error("WaitStatus for a status never sent returned no error")
	}
	if err := srv.WaitStatus(t.Context(), "ffffffffffffffffffffffffffffffff", model.StatusRunning); err == nil {
		t.Error("WaitStatus for no conversation returned no error")
	}
}
