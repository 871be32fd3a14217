package cloudserver

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/internal/redact"
	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/session"
	"ohwatch/theme"
)

// The fleet table over Cloud is driven in-process (internal/termtest),
// wired as `ohwatch fleet cloud` wires it (session.BuildFleet), over the
// real app server and the real agent-servers of its sandboxes: the test
// reads each frame the table drew, and what the sandbox's agent-server
// then holds.

// fleetTUI is the fleet table over app server a's Cloud, on a terminal
// wide enough for the footer to name a conversation whole.
type fleetTUI struct {
	t  *testing.T
	tm *termtest.Program
}

func (a *appServer) fleetTUI(t *testing.T) *fleetTUI {
	t.Helper()
	vars := map[string]string{"OH_API_KEY": apiKey, "OH_API_BASE": a.url}
	env := &session.Env{Stdout: io.Discard, Stderr: io.Discard, NoColor: true,
		Getenv: func(k string) string { return vars[k] }}
	o := session.FleetOptions{Interval: time.Second, Theme: theme.Auto}
	fl, err := session.BuildFleet(env, []string{"cloud"}, o, new(redact.Secrets), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &fleetTUI{t: t, tm: termtest.Start(t, fl.Table(ctx, env, o), 240, 50)}
}

// press sends keys: single characters, or "enter" and "esc".
func (f *fleetTUI) press(keys ...string) {
	for _, k := range keys {
		switch k {
		case "enter":
			f.tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		case "esc":
			f.tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
		default:
			f.tm.Type(k)
		}
	}
}

// screen waits until the frame drawn last, its styles taken out,
// satisfies cond, and returns it.
func (f *fleetTUI) screen(what string, cond func(screen string) bool) string {
	f.t.Helper()
	var plain string
	f.tm.WaitScreen(f.t, runBound, what, func(screen string) bool {
		plain = sgr.ReplaceAllString(screen, "")
		return cond(plain)
	})
	return plain
}

// sgr is a style's escape sequence (bold, reverse: the table draws them
// without colours too).
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// row waits for a row of the table holding every one of words and
// returns it; conv is the conversation it names.
func (f *fleetTUI) row(conv string, words ...string) string {
	f.t.Helper()
	var found string
	f.screen("a row of "+conv+" with "+strings.Join(words, ", "), func(screen string) bool {
		found = rowOf(screen, conv, words...)
		return found != ""
	})
	return found
}

// rowOf is the line of screen naming conv in its title (by its hex id's
// first 20 digits: the title column cuts the rest; the header names a
// filter by the same digits) that holds every one of words.
func rowOf(screen, conv string, words ...string) string {
	for line := range strings.Lines(screen) {
		if !strings.Contains(line, "Conversation "+hex(conv)[:20]) {
			continue
		}
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if all {
			return line
		}
	}
	return ""
}

// footer waits for the footer to hold part, and returns the frame.
func (f *fleetTUI) footer(part string) string {
	f.t.Helper()
	return f.screen("the footer saying "+part, func(screen string) bool {
		return strings.Contains(lastLines(screen, 3), part)
	})
}

// lastLines is the last n lines of screen that are not blank.
func lastLines(screen string, n int) string {
	var lines []string
	for line := range strings.Lines(screen) {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines[max(0, len(lines)-n):], "")
}

// select puts the cursor on conv's row: the table filtered to its id.
func (f *fleetTUI) selectRow(conv string) {
	f.t.Helper()
	f.press("esc", "/")
	f.tm.Type(hex(conv)[:20])
	f.press("enter")
	f.screen("the cursor on "+conv, func(screen string) bool {
		line := rowOf(screen, conv)
		return strings.HasPrefix(strings.TrimLeft(line, " "), "▶")
	})
}

// steps is the count a row's STEPS column shows (its first n/m).
var stepsCol = regexp.MustCompile(`\s(\d+)/\d+\s`)

func steps(row string) int {
	m := stepsCol.FindStringSubmatch(row)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sandboxServer is the agent-server in a conversation's sandbox, as the
// app server names it, to read what the conversation holds there.
func (a *appServer) sandboxServer(t *testing.T, sandbox string) *agentserver.Client {
	t.Helper()
	var boxes []*struct {
		Key  string `json:"session_api_key"`
		URLs []struct {
			Name string `json:"name"`
			URL  string `json:"url"`
		} `json:"exposed_urls"`
	}
	a.call(t, http.MethodGet, "/api/v1/sandboxes", url.Values{"id": {sandbox}}, &boxes)
	if len(boxes) != 1 || boxes[0] == nil {
		t.Fatalf("sandbox %s not found", sandbox)
	}
	for _, u := range boxes[0].URLs {
		if u.Name == "AGENT_SERVER" {
			c, err := agentserver.New(u.URL, boxes[0].Key)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	t.Fatalf("sandbox %s exposes no agent-server", sandbox)
	return nil
}

// statusOn is the conversation's execution status on its agent-server.
func statusOn(t *testing.T, c *agentserver.Client, conv string) string {
	t.Helper()
	info, err := c.Conversation(context.Background(), conv)
	if err != nil {
		t.Fatal(err)
	}
	return info.ExecutionStatus
}

// statusBecomes waits until the agent-server's own listing of the
// conversation says want, and returns the status it last said. The
// listing lags the conversation's events: a pause is in the events (a
// state update, then PauseEvent) while the run's last step still
// finishes, and only then does the listing leave running.
func statusBecomes(t *testing.T, c *agentserver.Client, conv, want string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		st := statusOn(t, c, conv)
		if st == want || time.Now().After(deadline) {
			return st
		}
		<-tick.C
	}
}

// TestFleetTUIOverCloud: `fleet cloud` in the table, over the real app
// server. A running conversation and its sub-conversation appear with
// the statuses their agent-server gives, the sub under its parent, and
// no false $0.00 (the listing's metrics are zeros nothing writes). The
// running row's controls act on its sandbox's agent-server: p pauses it,
// R resumes it (the server may first refuse the run while it finishes
// the paused one: the resume waits, saying so, and never shows a raw
// refusal), M sends a message it then holds and runs on to its end; enter
// opens the conversation.
func TestFleetTUIOverCloud(t *testing.T) {
	parallel(t)
	// Many slow steps: the run lasts until the message below ends it.
	parent, sandbox := shared.startConv(t, "STEPS=400 DELAY=1")
	sub := shared.startSub(t, parent, sandbox, "STEPS=1")
	agent := shared.sandboxServer(t, sandbox)
	// The sub ends before the table opens: one that ends while watched is
	// listed first among those that need the person, away from its parent.
	if st := statusBecomes(t, agent, sub, model.StatusFinished); st != model.StatusFinished {
		t.Fatalf("the sub-conversation did not finish: %s", st)
	}
	f := shared.fleetTUI(t)

	row := f.row(sub, "finished")
	if strings.Contains(row, "$0.00") {
		t.Errorf("the sub-conversation's row shows a false $0.00:\n%s", row)
	}
	f.screen("the sub-conversation under its parent", func(screen string) bool {
		lines := strings.Split(screen, "\n")
		for i := 1; i < len(lines); i++ {
			if strings.Contains(lines[i], "↳ Conversation "+hex(sub)[:12]) && strings.Contains(lines[i-1], hex(parent)[:20]) {
				return true
			}
		}
		return false
	})
	// A pause before the agent's first step is undone by the server: the
	// pause goes once the row shows steps taken.
	screen := f.screen("the parent running, some steps taken", func(screen string) bool {
		r := rowOf(screen, parent, "running")
		return r != "" && steps(r) >= 2
	})
	if r := rowOf(screen, parent); strings.Contains(r, "$0.00") {
		t.Errorf("the running parent's row shows a false $0.00:\n%s\n%s", r, screen)
	}

	f.selectRow(parent)
	f.press("p")
	f.footer("pause accepted")
	f.row(parent, "paused")
	if st := statusBecomes(t, agent, parent, model.StatusPaused); st != model.StatusPaused {
		t.Fatalf("p: the row read paused, the agent-server still says %s; its last events: %s", st, lastKinds(t, agent, parent, 8))
	}

	f.press("R")
	waited := false
	final := f.screen("the footer saying resume accepted", func(screen string) bool {
		foot := lastLines(screen, 3)
		waited = waited || strings.Contains(foot, "still finishing the paused run")
		return strings.Contains(foot, "resume accepted")
	})
	if waited {
		t.Log("R: the server finished the paused run first; the resume waited for it")
	}
	if strings.Contains(final, "409") || strings.Contains(final, "refused") {
		t.Errorf("R showed the server's refusal:\n%s", final)
	}
	f.row(parent, "running")
	if st := statusBecomes(t, agent, parent, model.StatusRunning); st != model.StatusRunning {
		t.Fatalf("R: the agent-server says %s", st)
	}

	// The latest directive wins: with one step asked for, the agent ends.
	f.press("M")
	f.tm.Type("STEPS=1")
	f.press("enter")
	f.footer("message sent")
	f.row(parent, "finished")
	if st := statusBecomes(t, agent, parent, model.StatusFinished); st != model.StatusFinished {
		t.Fatalf("M: the agent-server says %s", st)
	}
	evs, err := agent.Events(context.Background(), parent)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, ev := range evs {
		if m, ok := ev.Body.(*model.Message); ok && m.Role == "user" && strings.Contains(string(ev.Raw), "STEPS=1") {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("the agent-server holds %d user messages with the text sent, want 1", sent)
	}

	// enter opens the conversation: its own view, its events.
	f.press("enter")
	f.screen("the conversation opened", func(screen string) bool {
		return strings.Contains(screen, "Scripted finish after 1 steps") && !strings.Contains(screen, "STATUS")
	})
}

// lastKinds names the last n events of the conversation on its
// agent-server, with the status a state update set: what a failure needs
// to tell a server that went on from what ohwatch showed.
func lastKinds(t *testing.T, c *agentserver.Client, conv string, n int) string {
	t.Helper()
	evs, err := c.Events(context.Background(), conv)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, ev := range evs[max(0, len(evs)-n):] {
		k := ev.Kind
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.ExecutionStatus != "" {
			k += "(" + u.ExecutionStatus + ")"
		}
		out = append(out, k)
	}
	return strings.Join(out, ", ")
}
