package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestDemoFleetHeadlessAsTheREADMEShows runs the README's own line,
// `ohwatch demo --fleet --speed 20 --headless`, through the built program:
// five conversations, each named in a line, and the result the README
// shows, exit 1 (one ends in an error). The story's conversation is listed
// idle before its run starts and the others are listed as their staggered
// starts come; --until all ended on the first listing, with
// `1 conversation: 1 idle (exit 5)`, while it counted an idle conversation
// it had not seen run as at rest.
func TestDemoFleetHeadlessAsTheREADMEShows(t *testing.T) {
	cmd := exec.Command(ohwatchBinary(t), "demo", "--fleet", "--speed", "20", "--headless")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	const result = "every conversation ended; 5 conversations: 1 error, 1 stuck, 3 finished (exit 1)"
	if !strings.HasSuffix(out.String(), "\n"+result+"\n") {
		t.Errorf("the result line is not the README's %q:\n%s", result, out.String())
	}
	convs, err := demoFleet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range convs {
		if !strings.Contains(out.String(), "  >> "+c.id+"  ") {
			t.Errorf("no line names %s:\n%s", c.id, out.String())
		}
	}
}
