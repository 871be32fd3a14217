package fleetsource

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/model"
)

// TestPollerBacksOffAndRecovers: a listing that fails is asked again after
// the interval doubled per failure, up to the cap; the first success asks
// at the interval again and says so once; every failure is reported with
// its attempt and wait.
func TestPollerBacksOffAndRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		down := errors.New("connection refused")
		results := []error{down, down, down, down, down, nil, nil, down}
		start := time.Now()
		var at []time.Duration
		var reports []model.ConnState
		p := newPoller(time.Second, 10*time.Second, func(error) string { return "connect" })
		p.run(ctx, func(context.Context) error {
			at = append(at, time.Since(start))
			if len(at) > len(results) {
				cancel()
				return nil
			}
			return results[len(at)-1]
		}, func(cs model.ConnState) { reports = append(reports, cs) })

		want := []time.Duration{0, 2, 6, 14, 24, 34, 35, 36, 38}
		for i := range want {
			want[i] *= time.Second
		}
		if !reflect.DeepEqual(at, want) {
			t.Errorf("asked at %v, want %v", at, want)
		}
		var got []string
		for _, cs := range reports {
			got = append(got, cs.Phase.String()+" "+cs.RetryIn.String()+" "+cs.Code)
		}
		wantReports := []string{"reconnecting 2s connect", "reconnecting 4s connect", "reconnecting 8s connect",
			"reconnecting 10s connect", "reconnecting 10s connect", "live 0s ", "reconnecting 2s connect"}
		if !reflect.DeepEqual(got, wantReports) {
			t.Errorf("reports %q, want %q", got, wantReports)
		}
		if reports[4].Attempt != 5 || reports[6].Attempt != 1 || reports[0].Reason != "connection refused" {
			t.Errorf("attempts %d, %d, reason %q", reports[4].Attempt, reports[6].Attempt, reports[0].Reason)
		}
	})
}

// TestPollerStopsOnARejectedKey: a listing whose key is rejected is lost
// for good (asking again changes nothing): one final report, no retry.
func TestPollerStopsOnARejectedKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		asked := 0
		var reports []model.ConnState
		p := newPoller(time.Second, 10*time.Second, agentserverCode)
		p.run(t.Context(), func(context.Context) error {
			asked++
			return fmt.Errorf("GET /api/conversations/search: %w", agentserver.ErrAuth)
		}, func(cs model.ConnState) { reports = append(reports, cs) })
		if asked != 1 || len(reports) != 1 || reports[0].Phase != model.PhaseLost || !reports[0].Final || reports[0].Code != agentserver.CodeAuth {
			t.Fatalf("asked %d times, reports %+v", asked, reports)
		}
	})
}
