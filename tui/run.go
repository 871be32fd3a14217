package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// ErrInterrupted is returned by Run and RunFleet when the user pressed
// Ctrl-C: the terminal is in raw mode, so it arrives as a key, and it means
// what SIGINT means (exit 130), where q is a plain quit.
var ErrInterrupted = errors.New("interrupted")

// RunScreens shows root, and the screens it pushes, until the user quits
// (q at the root) or ctx is cancelled; it ends as Run does. A root that
// watched a live session that never connected (it has an Unreachable
// method, as a Conversation does) ends it with ErrUnreachable. extra are
// more program options (input, output, size), tests' mostly.
func RunScreens(ctx context.Context, root Screen, extra ...tea.ProgramOption) error {
	return RunModel(ctx, NewModel(root), extra...)
}

// RunModel runs the router until it quits and says how it ended.
func RunModel(ctx context.Context, root *Model, extra ...tea.ProgramOption) error {
	p := tea.NewProgram(root, append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}, extra...)...)
	final, err := p.Run()
	if m, ok := final.(*Model); ok && err == nil {
		if why := m.Unreachable(); why != "" {
			return fmt.Errorf("%w: %s", ErrUnreachable, why)
		}
	}
	return runError(ctx, err)
}

// ErrUnreachable is what Run returns when the user quit a live session
// that never connected or whose session key the server rejected: the
// caller exits as an unreachable source does (4), like headless.
var ErrUnreachable = errors.New("could not watch the conversation")

// runError is what Run and RunFleet return for the error of a program that
// ended: nil when ctx ended it, ErrInterrupted for Ctrl-C.
func runError(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return ErrInterrupted
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil
	}
	return err
}

// PrettyJSON indents raw JSON for the pager; invalid JSON is kept as is.
func PrettyJSON(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return raw
	}
	b.WriteByte('\n')
	return b.Bytes()
}
