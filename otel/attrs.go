package otel

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Caps on what an attribute may carry. A line (a title, a summary, an
// error message) is short by nature; content (tool arguments and output,
// only with Options.Content) is capped so that one huge command output
// cannot make a span the backend rejects.
const (
	lineCap    = 512
	ContentCap = 4096
)

// line returns s sanitised to one line and capped at lineCap bytes.
func line(s string) string { return capString(sanitize.Line(s), lineCap) }

// lineAttr is a string attribute holding a sanitised, capped line.
func lineAttr(k attribute.Key, s string) attribute.KeyValue { return k.String(line(s)) }

// capString cuts s to at most n bytes at a rune boundary, marking the cut
// with an ellipsis.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// content returns multi-line text sanitised and capped at ContentCap.
func content(s string) string { return capString(sanitize.Text(s), ContentCap) }

// actionArguments returns the nested action object of an ActionEvent as
// JSON (the tool call's arguments), sanitised and capped; "" when absent.
func actionArguments(ev *model.Event) string {
	var v struct {
		Action json.RawMessage `json:"action"`
	}
	if json.Unmarshal(ev.Raw, &v) != nil || len(v.Action) == 0 || string(v.Action) == "null" {
		return ""
	}
	return content(string(v.Action))
}

// observationText returns the text of an observation's content items (the
// tool's output), sanitised and capped; "" when there is none.
func observationText(ev *model.Event) string {
	var v struct {
		Observation struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"observation"`
	}
	if json.Unmarshal(ev.Raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	for _, c := range v.Observation.Content {
		if b.Len() > ContentCap {
			break
		}
		if c.Text != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		}
	}
	return content(b.String())
}
