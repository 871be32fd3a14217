package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

// Run shows the TUI until the user quits or ctx is cancelled. A non-empty
// NO_COLOR in the environment turns colours off.
func Run(ctx context.Context, opts Options) error {
	if os.Getenv("NO_COLOR") != "" { // no-color.org: set and not empty
		opts.NoColor = true
	}
	p := tea.NewProgram(New(opts), tea.WithContext(ctx))
	final, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if m, ok := final.(Model); ok && err == nil {
		if why := m.Unreachable(); why != "" {
			return fmt.Errorf("%w: %s", ErrUnreachable, why)
		}
	}
	return err
}

// ErrUnreachable is what Run returns when the user quit a live session
// that never connected or whose session key the server rejected: the
// caller exits as an unreachable source does (4), like headless.
var ErrUnreachable = errors.New("could not watch the conversation")

// prettyJSON indents raw JSON for the pager; invalid JSON is kept as is.
func prettyJSON(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return raw
	}
	b.WriteByte('\n')
	return b.Bytes()
}
