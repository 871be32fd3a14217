package cli

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/termtest"
	"ohwatch/session"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// TestOneNumberFindsOneEventEverywhere: the number a guard's line says a
// rule tripped at (text "#N", JSON "n") is the event `state --at N` is as
// of, the event the headless JSON line numbered n is, and the event the
// TUI's ":N" lands on with "#N" on its row: one numbering, from 1,
// wherever a person reads it.
func TestOneNumberFindsOneEventEverywhere(t *testing.T) {
	const rec = "../testdata/sdk"
	code, text, errs := runCmd(t, nil, "replay", rec, "--headless", "--guard", "steps > 2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m := regexp.MustCompile(`tripped at #(\d+):`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no trip line:\n%s", text)
	}
	n, _ := strconv.Atoi(m[1])

	// The JSON lines: the guard's n, and the event line numbered n.
	_, js, _ := runCmd(t, nil, "replay", rec, "--headless", "--json", "--guard", "steps > 2")
	var guardID, eventID string
	for _, line := range strings.Split(strings.TrimSpace(js), "\n") {
		var l struct {
			Type    string `json:"type"`
			Index   int    `json:"index"`
			N       int    `json:"n"`
			ID      string `json:"id"`
			EventID string `json:"event_id"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("not JSON: %v: %.100s", err, line)
		}
		switch {
		case l.Type == "guard":
			if l.N != n || l.Index != n-1 {
				t.Fatalf("guard line: n %d index %d, the text said #%d", l.N, l.Index, n)
			}
			guardID = l.EventID
		case l.Type == "event" && l.N == n:
			if l.Index != n-1 {
				t.Fatalf("event line n %d has index %d", l.N, l.Index)
			}
			eventID = l.ID
		}
	}
	if guardID == "" || guardID != eventID {
		t.Fatalf("guard at event %q, the line numbered %d is %q", guardID, n, eventID)
	}

	// state --at N is as of that event, and says so.
	_, st, _ := runCmd(t, nil, "state", rec, "--at", m[1], "--json")
	var doc struct {
		AsOf struct {
			N  int    `json:"n"`
			ID string `json:"id"`
		} `json:"as_of"`
	}
	if err := json.Unmarshal([]byte(st), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.AsOf.N != n || doc.AsOf.ID != eventID {
		t.Fatalf("state --at %d is as of #%d %q, not %q", n, doc.AsOf.N, doc.AsOf.ID, eventID)
	}
	if _, st, _ = runCmd(t, nil, "state", rec, "--at", m[1]); !strings.Contains(st, "(as of #"+m[1]+")") {
		t.Fatalf("state --at %d does not say which event:\n%s", n, st)
	}

	// The TUI: ":N" lands on that event, and its row says #N.
	_, log, err := session.LoadLog(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	view := conversation.NewConversation(conversation.Options{Log: log, Title: "numbers", NoColor: true})
	tm := termtest.Start(t, tui.NewModel(view), 160, 48)
	tm.WaitFor(t, 5*time.Second, "1/")
	tm.Type(":" + m[1])
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.WaitFor(t, 5*time.Second, "⏸ "+m[1]+"/")
	// Its raw JSON, in the inspector, is the event's.
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.WaitFor(t, 5*time.Second, "Inspect #"+m[1])
	tm.Type("r")
	tm.WaitFor(t, 5*time.Second, eventID)
	tm.Type("qq")
	tm.Final(t, 5*time.Second)
}
