package realserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/conversation"
)

// The TUI is driven in-process (internal/termtest), over the real client
// and the real server: the test has the model itself (its log, its final
// screen), so it waits on conditions, checked after each Update, rather
// than on escape sequences read from a pty at the speed a loaded machine
// draws them. The controls
// below are what main hands the TUI (cmd_watch.go, branching.go), over
// the same client calls.

// controls answers confirmations and forks and navigates one conversation
// of the server, recording the forks it made.
type controls struct {
	c      *agentserver.Client
	id     string
	mu     sync.Mutex
	forks  []string
	opened []string
	errs   []string
}

func (k *controls) Respond(ctx context.Context, accept bool, ids []string) error {
	err := k.c.RespondToActions(ctx, k.id, ids, accept, "Rejected in the suite.")
	var nw *agentserver.NotWaitingError
	if errors.As(err, &nw) {
		return fmt.Errorf("%w: %s", conversation.ErrNotSent, nw.Reason)
	}
	return err
}

func (k *controls) Fork(ctx context.Context, from, title, message string) (string, error) {
	id, err := k.c.Fork(ctx, k.id, from, title, true)
	if err != nil {
		k.mu.Lock()
		k.errs = append(k.errs, fmt.Sprintf("fork from %s: %v", from, err))
		k.mu.Unlock()
		return id, err
	}
	k.mu.Lock()
	k.forks = append(k.forks, id)
	k.mu.Unlock()
	if message != "" {
		return id, k.c.SendMessage(ctx, id, message)
	}
	return id, k.c.Run(ctx, id)
}

func (k *controls) Navigate(ctx context.Context, eventID string) error {
	return k.c.Navigate(ctx, k.id, eventID)
}

func (k *controls) Open(ctx context.Context, id string) (conversation.Options, bool) {
	k.mu.Lock()
	k.opened = append(k.opened, id)
	k.mu.Unlock()
	return conversation.Options{Title: id, Log: reducer.NewLog(nil, 0), Live: true, Server: k.c.BaseURL(), Conversation: id,
		Feed: k.c.Watch(ctx, id, agentserver.WatchOptions{})}, true
}

func (k *controls) forked() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.forks...)
}

// tuiSession is the TUI watching conversation id of the shared server.
type tuiSession struct {
	t   *testing.T
	tm  *termtest.Program
	log *reducer.Log
	k   *controls
}

func openTUI(t *testing.T, id string) *tuiSession {
	t.Helper()
	c, err := agentserver.New(shared.url(), serverKey)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	id = model.NormalizeConversationID(id)
	k := &controls{c: c, id: id}
	log := reducer.NewLog(nil, 0)
	m := conversation.New(conversation.Options{Title: id, Source: "ws " + shared.url(), Log: log, Live: true, NoColor: true,
		Server: shared.url(), Conversation: id, Feed: c.Watch(ctx, id, agentserver.WatchOptions{}),
		Controls: k, Branching: k})
	tm := termtest.Start(t, m, 160, 48)
	return &tuiSession{t: t, tm: tm, log: log, k: k}
}

// press sends keys: single characters, or "enter".
func (s *tuiSession) press(keys ...string) {
	for _, k := range keys {
		if k == "enter" {
			s.tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			continue
		}
		r := []rune(k)[0]
		s.tm.Send(tea.KeyPressMsg{Code: r, Text: k})
	}
}

// waitLog waits until the TUI's log satisfies cond.
func (s *tuiSession) waitLog(what string, cond func(*reducer.Log) bool) {
	s.t.Helper()
	s.tm.WaitUntil(s.t, runBound, "in the TUI's log: "+what, func() bool { return cond(s.log) })
}

// quit ends the program and returns its last screen.
func (s *tuiSession) quit() string {
	s.t.Helper()
	s.tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	return s.tm.Final(s.t, 30*time.Second).View().Content
}

func statusIs(status string, confirmed bool) func(*reducer.Log) bool {
	return func(l *reducer.Log) bool {
		st := l.Latest()
		return st.Status == status && (!confirmed || st.StatusConfirmed)
	}
}

// TestTUIAcceptAndReject: a and x, each confirmed with y, answer the real
// server's confirmation: accepted runs on to finished, rejected leaves it
// idle, and the TUI says what the server says.
func TestTUIAcceptAndReject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key, want string
	}{{"a", "finished"}, {"x", "idle"}} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			id := shared.create(t, convSpec{message: "Plan, then finish.", confirm: true, tracker: true})
			s := openTUI(t, id)
			s.waitLog("waiting for confirmation", func(l *reducer.Log) bool {
				st := l.Latest()
				return st.Status == model.StatusWaitingForConfirmation && len(st.Pending) == 1
			})
			s.press(tc.key, "y")
			shared.waitStatus(t, id, tc.want)
			s.waitLog(tc.want, statusIs(tc.want, tc.want == "finished"))
			screen := s.quit()
			if !strings.Contains(screen, tc.want) {
				t.Errorf("the screen does not say %s:\n%s", tc.want, screen)
			}
		})
	}
}

// TestTUIFork: b forks the real conversation from the event under the
// cursor, runs the fork on from there and opens it.
func TestTUIFork(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=2"})
	s := openTUI(t, id)
	s.waitLog("finished", statusIs("finished", true))
	obs := s.firstObservation()
	// The cursor to the first observation (":" jumps to an event by its
	// number), then b: no title, no message (it runs on from there), y.
	s.press(":", strconv.Itoa(obs+1), "enter", "b", "enter", "enter", "y")
	if !eventually(runBound, func() bool { return len(s.k.forked()) == 1 }) {
		s.k.mu.Lock()
		t.Fatalf("b made no fork: %v", s.k.errs)
	}
	fork := s.k.forked()[0]
	shared.waitStatus(t, fork, "finished")
	var forked struct {
		From string `json:"forked_from_event_id"`
	}
	shared.get(t, "/api/conversations/"+fork, &forked)
	if forked.From != s.log.Event(obs).ID {
		t.Errorf("the fork was made from %q, the cursor was on %s", forked.From, s.log.Event(obs).ID)
	}
	if !eventually(runBound, func() bool {
		s.k.mu.Lock()
		defer s.k.mu.Unlock()
		return len(s.k.opened) == 1 && s.k.opened[0] == fork
	}) {
		t.Fatal("the fork's view was not opened")
	}
	// q leaves the fork's view (if it is up yet), q quits.
	s.press("q")
	s.quit()
}

// TestTUINavigate: H moves the real server's HEAD to the event under the
// cursor, and the TUI's status stays the server's.
func TestTUINavigate(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=2"})
	s := openTUI(t, id)
	s.waitLog("finished", statusIs("finished", true))
	before := shared.info(t, id).LeafEventID
	obs := s.firstObservation()
	s.press(":", strconv.Itoa(obs+1), "enter", "H", "y")
	var after string
	if !eventually(runBound, func() bool {
		after = shared.info(t, id).LeafEventID
		return after != before
	}) || after != s.log.Event(obs).ID {
		t.Fatalf("H did not move the server's HEAD to event %d: %s (was %s)", obs, after, before)
	}
	s.waitLog("HEAD where the server has it", func(l *reducer.Log) bool { return l.Leaf() == obs })
	srv := shared.info(t, id).ExecutionStatus
	if st := s.log.Latest(); st.Status != srv {
		t.Errorf("after H the TUI says %s, the server %s", st.Verdict(false), srv)
	}
	screen := s.quit()
	if !strings.Contains(screen, srv) {
		t.Errorf("the screen does not say %s:\n%s", srv, screen)
	}
}

// firstObservation is the index of the first ObservationEvent in the log.
func (s *tuiSession) firstObservation() int {
	s.t.Helper()
	for i := range s.log.Len() {
		if _, ok := s.log.Event(i).Body.(*model.Observation); ok {
			return i
		}
	}
	s.t.Fatal("no observation in the log")
	return -1
}
