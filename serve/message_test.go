package serve

import (
	"encoding/json"
	"net/http"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

const stopMessage = `{"role":"user","content":[{"type":"text","text":"do NOT run that"}],"run":true}`

// TestMessageWhileWaitingApprovesAs1431: on the version serve imitates by
// default, a message that runs the agent approves what waits (upstream
// v1.43.1: run() clears WAITING_FOR_CONFIRMATION as "user approved").
func TestMessageWhileWaitingApprovesAs1431(t *testing.T) {
	evs := testevents.Twin(t, "confirmation_mode")
	url, ws := heldWith(t, Options{}, nil, evs, nil)
	if v := serverInfoVersion(t, url); v != SDKVersion {
		t.Fatalf("/server_info sdk_version %q", v)
	}
	if code := post(t, eventsURL(url, convID, ""), "", stopMessage, nil); code != http.StatusOK {
		t.Fatalf("message: HTTP %d", code)
	}
	if next := ws.next(); next.Kind != model.KindMessage || next.Source != "user" {
		t.Fatalf("first after the message: %s", next.Raw)
	}
	if next := ws.next(); statusOf(next) != model.StatusRunning {
		t.Fatalf("the message did not approve: %s", next.Raw)
	}
	if next := ws.next(); next.Kind != model.KindObservation {
		t.Fatalf("the approved action's result did not follow: %s", next.Raw)
	}
}

// TestMessageWhileWaitingSupersedesWithTheOption: imitating upstream PR
// #5110, the pending actions are rejected before the message is taken.
func TestMessageWhileWaitingSupersedesWithTheOption(t *testing.T) {
	evs := testevents.Twin(t, "confirmation_mode")
	url, ws := heldWith(t, Options{MessageSupersedes: true}, nil, evs, nil)
	if v := serverInfoVersion(t, url); v != SupersedingVersion {
		t.Fatalf("/server_info sdk_version %q", v)
	}
	if code := post(t, eventsURL(url, convID, ""), "", stopMessage, nil); code != http.StatusOK {
		t.Fatalf("message: HTTP %d", code)
	}
	rej := ws.next()
	if b, ok := rej.Body.(*model.UserReject); !ok || b.Reason != supersededReason {
		t.Fatalf("first after the message: %s", rej.Raw)
	}
	if st := statusOf(ws.next()); st != model.StatusIdle {
		t.Fatalf("after the rejection: %q", st)
	}
	if next := ws.next(); next.Kind != model.KindMessage || next.Source != "user" {
		t.Fatalf("the message after the rejection: %s", next.Raw)
	}
}

// serverInfoVersion is /server_info's sdk_version.
func serverInfoVersion(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/server_info")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info struct {
		SDK string `json:"sdk_version"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	return info.SDK
}
