package headless

import (
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// TestConnectionLinePrecedesItsBatch checks that a connection change is
// printed before the events of its batch: the change took effect before
// they arrived, so "reconnecting" after them would misplace the gap.
func TestConnectionLinePrecedesItsBatch(t *testing.T) {
	ch := make(chan model.Batch, 2)
	ch <- model.Batch{Events: []model.Event{userMsg(t, "first")}}
	ch <- model.Batch{
		Conn:   &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, RetryIn: time.Second},
		Events: []model.Event{userMsg(t, "after the reconnect")},
	}
	close(ch)
	_, out := run(t, ch, Options{Recording: true})
	conn := strings.Index(out, "connection: reconnecting")
	after := strings.Index(out, "after the reconnect")
	if conn < 0 || after < 0 || conn > after {
		t.Fatalf("the connection line is not before its batch's event:\n%s", out)
	}
	if first := strings.Index(out, "first"); first > conn {
		t.Fatalf("the earlier batch's event follows the connection line:\n%s", out)
	}
}
