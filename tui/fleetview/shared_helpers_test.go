package fleetview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
)

// The helpers below are the conversation view's and the compare screen's
// test helpers that the fleet's tests share: the fleet opens both.

// fakeSteering records the controls sent to it.
type fakeSteering struct {
	fakeControls
	mu   sync.Mutex
	sent []string
	err  error
}

func (f *fakeSteering) record(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, s)
	return f.err
}

func (f *fakeSteering) Pause(context.Context) error { return f.record("pause") }

func (f *fakeSteering) Run(context.Context) error { return f.record("run") }

func (f *fakeSteering) Interrupt(context.Context) error { return f.record("interrupt") }

func (f *fakeSteering) Message(_ context.Context, text string, run bool) error {
	return f.record("message " + text + map[bool]string{true: " +run", false: " append"}[run])
}

func (f *fakeSteering) Policy(_ context.Context, p string) (string, error) {
	return p, f.record("policy " + p)
}

func (f *fakeSteering) got() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.sent, "|")
}

// forkCall is one call of Fork.
type forkCall struct{ eventID, title, message string }

// fakeBranching records what the view asks of the source. forkErr and
// navErr are what Fork and Navigate return; fleet makes Open leave the fork
// to another screen.
type fakeBranching struct {
	mu      sync.Mutex
	forks   []forkCall
	navs    []string
	forkErr error
	navErr  error
	Fleet   bool
	// openCtxs are the contexts Open was given, one per view opened.
	openCtxs []context.Context
}

func (f *fakeBranching) Fork(_ context.Context, from, title, message string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forks = append(f.forks, forkCall{eventID: from, title: title, message: message})
	if f.forkErr != nil && !errors.Is(f.forkErr, errHalfFork) {
		return "", f.forkErr
	}
	return "f0000000000040008000000000000001", f.forkErr
}

func (f *fakeBranching) Navigate(_ context.Context, eventID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.navs = append(f.navs, eventID)
	return f.navErr
}

func (f *fakeBranching) Open(ctx context.Context, id string) (conversation.Options, bool) {
	f.mu.Lock()
	f.openCtxs = append(f.openCtxs, ctx)
	f.mu.Unlock()
	if f.Fleet {
		return conversation.Options{}, false
	}
	return conversation.Options{Title: "the fork " + id[:8], Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch), Branching: f}, true
}

// results runs cmd and returns the messages it and its batches send,
// ticks aside.
func results(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil || tuitest.IsTick(cmd) {
		return nil
	}
	msg := tuitest.AnswerOf(t, cmd)
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, results(t, c)...)
		}
		return out
	}
	if tick := fmt.Sprintf("%T", msg) == "conversation.flashExpiredMsg"; tick || msg == nil { // a flash's expiry
		return nil
	}
	return []tea.Msg{msg}
}

// newModel builds a plain-text model of the given size.
func newModel(opts conversation.Options, w, h int) *conversation.Conversation {
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	m := conversation.NewConversation(opts)
	_ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// screen renders the model as plain text.
func screen(m *conversation.Conversation) string {
	return m.View()
}

// press sends keys to the model one by one, running no commands, and
// returns the model and the last command.
func press(tb testing.TB, m *conversation.Conversation, keys ...string) (*conversation.Conversation, tea.Cmd) {
	tb.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = m.Update(tuitest.KeyMsg(k))
		settle(m, cmd)
	}
	return m, cmd
}

// firstAddressed runs cmd (and the commands of a batch) until one sends
// a message addressed to id, and returns it.
func firstAddressed(t testing.TB, cmd tea.Cmd, id tui.ScreenID) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if c == nil {
				continue
			}
			if a, ok := peekAddressed(c, id); ok {
				return a
			}
		}
	case tui.Addressed:
		if msg.Addressee() == id {
			return msg
		}
	}
	t.Fatalf("no message addressed to %d", id)
	return nil
}

// wideTextLog is a conversation of emoji with skin tones and joiners, CJK,
// combining marks and emoji presentation selectors.
func wideTextLog(t *testing.T) *reducer.Log {
	family := "👩\u200d👩\u200d👧\u200d👦"
	return tuitest.FixtureLog(t,
		evMessage("w1", "user", strings.Repeat("👍🏽", 30)+" thumbs up"),
		evMessage("w2", "agent", strings.Repeat(family+" ", 20)+"family"),
		evMessage("w3", "user", "漢字とかなの混じった文章、全角の句読点。"+strings.Repeat("中文测试", 10)),
		evMessage("w4", "agent", "combining: e\u0301te\u0301 cafe\u0301 n\u0303 a\u0308\u0301 "+strings.Repeat("Z\u0335\u0321\u0358 ", 10)),
		evMessage("w5", "agent", "⚠️ ❤️ ✈️ ☀️ presentation selectors ⚠️ ❤️ ✈️ ☀️ "+strings.Repeat("🏳\ufe0f\u200d🌈 ", 12)),
	)
}

// unicodeCore is the terminal's report that it clusters graphemes.
var unicodeCore = tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet}

// compareFixtureDirs names the fixture's two recordings, the parent's and
// the fork's, for loadedLog and forkPoint.
func compareFixtureDirs(t *testing.T) []string {
	t.Helper()
	compareRoot.once.Do(func() {
		dirs, err := gen.WriteRoot(t.TempDir(), gen.Options{Events: 300, Seed: 7, Forks: 1})
		if err != nil {
			compareRoot.err = err
			return
		}
		compareRoot.convs = map[string]*files.Conversation{}
		for k, name := range []string{"parent", "fork"} {
			conv, err := files.Load(dirs[k])
			if err != nil {
				compareRoot.err = err
				return
			}
			compareRoot.convs[name] = conv
		}
	})
	if compareRoot.err != nil {
		t.Fatal(compareRoot.err)
	}
	return []string{"parent", "fork"}
}

// loadedLog is a fresh log of the fixture's recording name.
func loadedLog(t *testing.T, name string) *reducer.Log {
	t.Helper()
	compareFixtureDirs(t)
	conv := compareRoot.convs[name]
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return log
}

// forkPoint is the event the fixture's fork was made at, as its meta.json
// says.
func forkPoint(t *testing.T, name string) string {
	t.Helper()
	compareFixtureDirs(t)
	point := compareRoot.convs[name].ForkedFromEvent
	if point == "" {
		t.Fatalf("%s names no fork point", name)
	}
	return point
}

// errHalfFork is a fork that exists but whose first message failed.
var errHalfFork = errors.New("the first message was not sent")

// settle runs the commands a key returned that answer at once (the
// inspector's view of an event, built off the UI), skipping ticks and
// waits on a feed, and hands their messages to the view: a test reads the
// open inspector without running the program.
func settle(m *conversation.Conversation, cmd tea.Cmd) {
	if cmd == nil || tuitest.IsTick(cmd) || strings.Contains(tuitest.FuncOf(cmd), "waitFeed") {
		return
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			settle(m, c)
		}
		return
	}
	if msg != nil {
		m.Update(msg)
	}
}

// peekAddressed runs c (the feed's wait answers at once: its batch is
// waiting) and reports its message when it is addressed to id.
func peekAddressed(c tea.Cmd, id tui.ScreenID) (tea.Msg, bool) {
	msg := c()
	if a, ok := msg.(tui.Addressed); ok && a.Addressee() == id {
		return msg, true
	}
	return nil, false
}

// evMessage is a MessageEvent with one text part.
func evMessage(id, source, text string) string {
	return `{"id":"` + id + `","timestamp":"2026-01-27T03:56:24.000000","source":"` + source +
		`","llm_message":{"role":"` + map[string]string{"user": "user", "agent": "assistant"}[source] +
		`","content":[{"type":"text","text":"` + text + `"}]},"kind":"MessageEvent"}`
}

// fakeControls records the answers sent to a live conversation; err, when
// set, is what every answer returns.
type fakeControls struct {
	mu      sync.Mutex
	answers []bool
	ids     [][]string
	err     error
}

func (f *fakeControls) Respond(_ context.Context, accept bool, actionIDs []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.answers = append(f.answers, accept)
	f.ids = append(f.ids, slices.Clone(actionIDs))
	return nil
}

// compareRoot is a generated conversation and a fork of it, written to
// the first caller's temporary directory and read once per test binary:
// the compare screen's fixture, kept in memory.
var compareRoot struct {
	once  sync.Once
	convs map[string]*files.Conversation
	err   error
}
