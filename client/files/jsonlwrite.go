package files

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// WriteJSONL writes events as JSONL, one event per line, in order, each
// made safe for a terminal by sanitize.JSON: compacted onto one
// line, with C1 controls, bidi overrides, separators and the like written
// as \u escapes and invalid UTF-8 as \ufffd. The JSON values are the
// events' own, so Load reads the same events back; an export piped to a
// terminal cannot drive it. Bytes that are not JSON at all (never kept by
// a loader, but possible in a hand-built log) are written as a JSON string
// under "ohwatch_invalid_json", so no line is lost and every line parses.
func WriteJSONL(w io.Writer, events []model.Event) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	for i, ev := range events {
		if len(bytes.TrimSpace(ev.Raw)) == 0 {
			return fmt.Errorf("write jsonl: event %d has no raw bytes", i)
		}
		line, ok := sanitize.JSON(ev.Raw)
		if !ok {
			wrapped, err := json.Marshal(map[string]string{"ohwatch_invalid_json": string(ev.Raw)})
			if err != nil {
				return fmt.Errorf("write jsonl: event %d: %w", i, err)
			}
			line, _ = sanitize.JSON(wrapped)
		}
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("write jsonl: %w", err)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("write jsonl: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write jsonl: %w", err)
	}
	return nil
}
