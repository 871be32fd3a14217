package session

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/client/agentserver"
	"ohwatch/client/fleetsource"
	"ohwatch/internal/redact"
	"ohwatch/internal/teacmds"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/fleetview"
)

// The fleet table's controls on its rows, wired as `ohwatch fleet` wires
// them, over real sockets to serve: each control's effect is read back
// from the server.

// runningConv serves a conversation titled title that is running and
// stays so for minutes: the first 30 events of a generated run (one turn,
// not finished) at a tenth of their pace, so a pause always lands before
// the recording ends.
func runningConv(t *testing.T, srv *serve.Server, id, title string, seed int64) {
	t.Helper()
	srv.Add(id, &model.BaseState{ID: id, Title: title}, testevents.Generated(t, 30, seed))
}

// fleetTableOver runs the fleet table over where (as BuildFleet reads it),
// at the Update level, listing every 50 ms.
func fleetTableOver(t *testing.T, env *Env, where ...string) *tableDriver {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	o := FleetOptions{Interval: 50 * time.Millisecond, Theme: theme.Auto}
	fl, err := BuildFleet(env, where, o, new(redact.Secrets), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	feed := fleetsource.Watch(ctx, fl.sources, fleetsource.Options{})
	opts := fl.tableOptions(ctx, env, o, feed)
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	d := &tableDriver{t: t, m: tui.NewModel(fleetview.NewFleet(opts)), msgs: make(chan tea.Msg, 64)}
	teacmds.Run(d.m.Init(), d.msgs)
	d.update(tea.WindowSizeMsg{Width: 160, Height: 30})
	return d
}

// untilRow handles messages until a line of the screen holds title and
// every one of words.
func (d *tableDriver) untilRow(title string, words ...string) {
	d.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		screen := d.m.View().Content
		for _, line := range strings.Split(screen, "\n") {
			if !strings.Contains(line, title) {
				continue
			}
			all := true
			for _, w := range words {
				all = all && strings.Contains(line, w)
			}
			if all {
				return
			}
		}
		select {
		case msg := <-d.msgs:
			d.update(msg)
		case <-deadline:
			d.t.Fatalf("no row %q with %q:\n%s", title, words, screen)
		}
	}
}

// filter keeps the rows matching q (the cursor then on the first).
func (d *tableDriver) filter(q string) {
	d.press("esc")
	d.press("/")
	for _, r := range q {
		d.press(string(r))
	}
	d.press("enter")
}

// typeText types text into the field open.
func (d *tableDriver) typeText(text string) {
	for _, r := range text {
		d.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// onServer reads a conversation back from the server.
type onServer struct {
	t *testing.T
	c *agentserver.Client
}

func (s onServer) status(id string) string {
	s.t.Helper()
	info, err := s.c.Conversation(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return info.ExecutionStatus
}

// count is how many of the conversation's events are of kind and hold
// text.
func (s onServer) count(id, kind, text string) int {
	s.t.Helper()
	evs, err := s.c.Events(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Kind == kind && strings.Contains(string(ev.Raw), text) {
			n++
		}
	}
	return n
}

// eventually waits until cond holds; the server acts on a control before
// it answers, so this only bounds a failure.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const (
	alphaID   = "a0000000000000000000000000000001"
	bravoID   = "b0000000000000000000000000000002"
	charlieID = "c0000000000000000000000000000003"
	deltaID   = "d0000000000000000000000000000004"
)

// TestFleetRowControlsActOnServe drives the table's controls on the rows
// of an agent-server fleet (serve, real sockets): p pauses the row's
// conversation (a PauseEvent, status paused), R resumes it, M sends a
// message that enters its log; I asked on a row and answered after the
// rows changed (a conversation added, another paused) interrupts the row
// it was asked on; P asks about the running rows shown, naming how many,
// and y pauses each of them.
func TestFleetRowControlsActOnServe(t *testing.T) {
	srv := serve.New(serve.Options{Speed: 0.1})
	runningConv(t, srv, alphaID, "Alpha ledger", 1)
	runningConv(t, srv, bravoID, "Bravo ledger", 2)
	runningConv(t, srv, charlieID, "Charlie ledger", 3)
	url := startTestServer(t, srv)
	c, err := agentserver.New(url, "")
	if err != nil {
		t.Fatal(err)
	}
	server := onServer{t: t, c: c}
	d := fleetTableOver(t, &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, url)
	for _, title := range []string{"Alpha ledger", "Bravo ledger", "Charlie ledger"} {
		d.untilRow(title, "running", "live")
	}

	// p on Alpha's row pauses Alpha, and Alpha alone.
	d.filter("Alpha")
	d.press("p")
	d.until("“Alpha ledger”: pause accepted")
	if got := server.status(alphaID); got != model.StatusPaused || server.count(alphaID, model.KindPause, "") != 1 {
		t.Fatalf("p: Alpha is %s with %d PauseEvents", got, server.count(alphaID, model.KindPause, ""))
	}
	if server.status(bravoID) != model.StatusRunning || server.status(charlieID) != model.StatusRunning {
		t.Fatal("p paused another conversation")
	}
	// R resumes it, once its row shows it paused.
	d.untilRow("Alpha ledger", "paused")
	d.press("R")
	d.until("“Alpha ledger”: resume accepted")
	eventually(t, "Alpha running again", func() bool { return server.status(alphaID) == model.StatusRunning })
	// M: a message typed on the table enters Alpha's log.
	d.untilRow("Alpha ledger", "running")
	d.press("M")
	d.typeText("check the totals")
	d.press("enter")
	d.until("“Alpha ledger”: message sent")
	if server.count(alphaID, model.KindMessage, "check the totals") != 1 {
		t.Fatal("M: the message is not in Alpha's log")
	}

	// I is bound to the row it was asked on, whatever the rows do before y.
	d.filter("ledger")
	d.press("I")
	screen := d.until("Interrupt “")
	m := regexp.MustCompile(`Interrupt “([A-Za-z]+ ledger)”`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("I does not name its conversation:\n%s", screen)
	}
	asked := map[string]string{"Alpha ledger": alphaID, "Bravo ledger": bravoID, "Charlie ledger": charlieID}[m[1]]
	runningConv(t, srv, deltaID, "Delta ledger", 4)
	other := bravoID
	if asked == bravoID {
		other = charlieID
	}
	if err := c.Pause(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	d.untilRow("Delta ledger", "running", "live")
	d.untilRow(map[string]string{bravoID: "Bravo ledger", charlieID: "Charlie ledger"}[other], "paused")
	d.press("y")
	d.until("“" + m[1] + "”: interrupt accepted")
	if server.count(asked, model.KindInterrupt, "") != 1 || server.status(asked) != model.StatusPaused {
		t.Fatalf("I y: %s is %s with %d InterruptEvents", m[1], server.status(asked), server.count(asked, model.KindInterrupt, ""))
	}
	for _, id := range []string{alphaID, bravoID, charlieID, deltaID} {
		if id != asked && server.count(id, model.KindInterrupt, "") != 0 {
			t.Errorf("the interrupt reached %s too", id)
		}
	}

	// P names the running rows shown (the two neither paused nor
	// interrupted), and y pauses them.
	var running []string
	for _, id := range []string{alphaID, bravoID, charlieID, deltaID} {
		if server.status(id) == model.StatusRunning {
			running = append(running, id)
		}
	}
	if len(running) != 2 {
		t.Fatalf("running before P: %v", running)
	}
	d.untilRow(m[1], "paused")
	d.press("P")
	d.until("Pause all 2 conversations running shown? [y/n]")
	d.press("y")
	d.until("pause: 2 of 2 accepted")
	for _, id := range running {
		if server.status(id) != model.StatusPaused || server.count(id, model.KindPause, "") == 0 {
			t.Errorf("P y: %s is %s", id, server.status(id))
		}
	}
}

// TestFleetCloudRowControlsActOnTheSandbox drives the table's controls on
// a Cloud row (an httptest Cloud whose sandbox URL is serve, over real
// sockets). While the sandbox is paused, each control says so and sends
// nothing, anywhere; once the sandbox runs, p pauses the conversation on
// the sandbox's agent-server (a PauseEvent, status paused), R resumes it
// and M's message enters its log. Cloud itself only ever gets GETs: no
// control resumes a sandbox. No key reaches a URL or the screen.
func TestFleetCloudRowControlsActOnTheSandbox(t *testing.T) {
	srv := serve.New(serve.Options{Key: pausedAgentKey, Speed: 0.1})
	runningConv(t, srv, pausedConvID, "Tidy the release notes", 5)
	agentURL := startTestServer(t, srv)
	c, err := agentserver.New(agentURL, pausedAgentKey)
	if err != nil {
		t.Fatal(err)
	}
	server := onServer{t: t, c: c}
	cl := newPausedCloud(t, agentURL, nil)
	env := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"OH_API_KEY": pausedAPIKey, "OH_API_BASE": cl.srv.URL}[k]
	}}
	d := fleetTableOver(t, env, "cloud")
	const title = "Tidy the release notes"

	// Its sandbox is paused: nothing is sent.
	d.untilRow(title, "paused")
	for _, k := range []string{"p", "R", "M"} {
		d.press(k)
		d.until(k2name[k] + ": “" + title + "”: its sandbox is paused: open it to resume (enter); nothing sent")
	}
	if n := server.count(pausedConvID, model.KindPause, ""); n != 0 {
		t.Fatalf("p on a paused sandbox reached its server: %d PauseEvents", n)
	}

	// Someone resumed it: the controls go to its sandbox's agent-server.
	cl.mu.Lock()
	cl.running = true
	cl.mu.Unlock()
	d.untilRow(title, "running", "live")
	d.press("p")
	d.until("“" + title + "”: pause accepted")
	if got := server.status(pausedConvID); got != model.StatusPaused || server.count(pausedConvID, model.KindPause, "") != 1 {
		t.Fatalf("p: the sandbox's conversation is %s with %d PauseEvents", got, server.count(pausedConvID, model.KindPause, ""))
	}
	d.untilRow(title, "paused")
	d.press("R")
	d.until("“" + title + "”: resume accepted")
	eventually(t, "running again", func() bool { return server.status(pausedConvID) == model.StatusRunning })
	d.untilRow(title, "running")
	d.press("M")
	d.typeText("summarise the notes")
	d.press("enter")
	screen := d.until("“" + title + "”: message sent")
	if server.count(pausedConvID, model.KindMessage, "summarise the notes") != 1 {
		t.Fatal("M: the message is not in the conversation's log")
	}
	for _, r := range cl.sent() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the table sent %s to Cloud", r)
		}
		if strings.Contains(r, pausedAPIKey) || strings.Contains(r, pausedAgentKey) {
			t.Errorf("a key in a URL: %s", r)
		}
	}
	if strings.Contains(screen, pausedAPIKey) || strings.Contains(screen, pausedAgentKey) {
		t.Error("a key on the screen")
	}
}

// k2name is the name a fleet control's key gives it in the footer.
var k2name = map[string]string{"p": "pause", "R": "resume", "M": "message"}
