package files

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"ohwatch/model"
)

// WriteJSONL writes events as JSONL: each event's raw bytes on one line,
// in order. An event whose bytes span several lines (a pretty-printed
// file) is compacted onto one, which changes only whitespace; every other
// event is written byte for byte, so Load reads the same events back.
func WriteJSONL(w io.Writer, events []model.Event) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var compact bytes.Buffer
	for i, ev := range events {
		raw := bytes.TrimSpace(ev.Raw)
		if len(raw) == 0 {
			return fmt.Errorf("write jsonl: event %d has no raw bytes", i)
		}
		if bytes.ContainsAny(raw, "\r\n") {
			compact.Reset()
			if err := json.Compact(&compact, raw); err != nil {
				return fmt.Errorf("write jsonl: event %d: %w", i, err)
			}
			raw = compact.Bytes()
		}
		if _, err := bw.Write(raw); err != nil {
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
