package fleetview

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// TestFleetPausedAsksToResume: enter on a Cloud conversation whose sandbox
// is paused says so and asks; y resumes it (Resume) and opens it live, n
// and esc open the stored events read-only (Open), any other key leaves
// the question open. Without Resume, enter opens it read-only at once.
func TestFleetPausedAsksToResume(t *testing.T) {
	t.Parallel()
	var calls []string
	opts := FleetOptions{
		Open: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			calls = append(calls, "open "+ref.ID)
			return conversation.Options{Title: "stored " + ref.ID}, nil
		},
		Resume: func(_ context.Context, ref model.ConversationRef) (conversation.Options, error) {
			calls = append(calls, "resume "+ref.ID)
			if len(calls) > 2 {
				return conversation.Options{}, errors.New("sandbox sb-1 is ERROR")
			}
			return conversation.Options{Title: "live " + ref.ID, Live: true}, nil
		},
	}
	f := fleetFixtureScreen(t, 150, 30, opts)
	// The keys' commands are run by hand, to see what each asks for; the
	// screen is read through the driver.
	d := drive(t, f, 150, 30)
	onPaused := func() {
		t.Helper()
		pressFleet(f, "/")
		for _, r := range "release notes" {
			pressFleet(f, string(r))
		}
		pressFleet(f, "enter")
		if got := selectedTitle(d); got != "Write the release notes" {
			t.Fatalf("not on the paused row: %q", got)
		}
	}
	onPaused()

	// enter asks, and says what resuming does.
	if cmd := pressFleet(f, "enter"); cmd != nil || len(calls) != 0 {
		t.Fatalf("enter on a paused conversation opened it: %v", calls)
	}
	screen := f.View()
	for _, want := range []string{"“Write the release notes”: its sandbox is paused", "Resuming starts the sandbox again on Cloud",
		"y resume the sandbox and open it live", "n/esc open the stored events read-only"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the question lacks %q:\n%s", want, screen)
		}
	}
	if got := strings.Count(screen, "\n") + 1; got != 30 {
		t.Fatalf("the screen is %d lines, want 30", got)
	}
	// Another key leaves the question open.
	if cmd := pressFleet(f, "j"); cmd != nil || len(calls) != 0 {
		t.Fatal("a key other than y, n or esc answered the question")
	}
	d.Shows("“Write the release notes”: its sandbox is paused")

	// y resumes it and opens it live.
	cmd := pressFleet(f, "y")
	if cmd == nil || !strings.Contains(f.View(), "resuming… Write the release") {
		t.Fatalf("y did not start resuming:\n%s", f.View())
	}
	push, ok := f.Update(cmd())().(tui.PushMsg)
	if !ok || strings.Join(calls, ",") != "resume c10d" || !push.Screen.(*fleetConversation).Opts.Live {
		t.Fatalf("after y: %v, %#v", calls, push)
	}

	// n opens the stored events, read-only; so does esc.
	for _, k := range []string{"n", "esc"} {
		calls = nil
		pressFleet(f, "enter")
		cmd := pressFleet(f, k)
		if cmd == nil {
			t.Fatalf("%s did not answer", k)
		}
		d.Hides("its sandbox is paused")
		push, ok := f.Update(cmd())().(tui.PushMsg)
		if !ok || strings.Join(calls, ",") != "open c10d" || push.Screen.(*fleetConversation).Opts.Live {
			t.Fatalf("after %s: %v", k, calls)
		}
	}

	// A resume that fails says so.
	calls = []string{"", ""}
	pressFleet(f, "enter")
	f.Update(pressFleet(f, "y")())
	if !strings.Contains(f.View(), "could not resume the sandbox of c10d: sandbox sb-1 is ERROR") {
		t.Fatalf("the failed resume is not shown:\n%s", f.View())
	}

	// Without Resume, enter opens it read-only at once.
	opts.Resume = nil
	f = fleetFixtureScreen(t, 150, 30, opts)
	d = drive(t, f, 150, 30)
	onPaused()
	calls = nil
	if cmd := pressFleet(f, "enter"); cmd == nil {
		t.Fatal("without Resume, enter opened nothing")
	} else {
		d.Hides("its sandbox is paused")
		cmd()
	}
	if strings.Join(calls, ",") != "open c10d" {
		t.Fatalf("without Resume: %v", calls)
	}
}
