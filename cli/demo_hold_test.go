package cli

import (
	"strings"
	"testing"

	"ohwatch/headless"
	"ohwatch/serve"
)

// TestDemoWaitsForTheUserInTheTUI: the demo in a terminal holds its
// confirmation until answered; headless, where nobody can answer, its
// server accepts after a hold and a line says so.
func TestDemoWaitsForTheUserInTheTUI(t *testing.T) {
	if got := demoHold(false, 1); got != serve.UntilAnswered {
		t.Errorf("the TUI demo holds %s, want until answered", got)
	}
	if got := demoHold(true, 2); got <= 0 {
		t.Errorf("the headless demo holds %s, want a duration", got)
	}
}

func TestDemoHeadlessSaysItsServerAccepted(t *testing.T) {
	code, out, errs := runCmd(t, nil, "demo", "--headless", "--speed", "400")
	if code != headless.ExitFinished {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "nobody can answer in --headless, so the demo's server accepted the waiting action itself after 15ms") {
		t.Errorf("stderr does not say the server accepted:\n%s", errs)
	}
}
