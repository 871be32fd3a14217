package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// prettyJSON indents raw JSON for the pager; invalid JSON is kept as is.
func prettyJSON(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return raw
	}
	b.WriteByte('\n')
	return b.Bytes()
}
