package headless

import (
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
)

// askLine is the JSONL line of an open ask_user question.
type askLine struct {
	Type      string        `json:"type"`
	Index     int           `json:"index"`
	RequestID string        `json:"request_id"`
	Questions []askQuestion `json:"questions"`
}

// askQuestion is one question of an askLine.
type askQuestion struct {
	ID          string   `json:"id"`
	Question    string   `json:"question"`
	Options     []string `json:"options,omitempty"`
	MultiSelect bool     `json:"multi_select,omitempty"`
}

// asking prints the questions the conversation waits to have answered, in
// place of the actions a confirmation would list: the ask_user action
// waits for an answer, not an approval.
func (p *printer) asking(q *reducer.Question) {
	req := q.Request
	if p.json {
		l := askLine{Type: "awaiting_answer", Index: q.Index, RequestID: sanitize.Line(req.RequestID), Questions: []askQuestion{}}
		for _, qu := range req.Questions {
			aq := askQuestion{ID: qu.ID, Question: qu.Text, MultiSelect: qu.MultiSelect}
			for _, o := range qu.Options {
				aq.Options = append(aq.Options, o.Label)
			}
			l.Questions = append(l.Questions, aq)
		}
		p.writeJSON(l)
		return
	}
	for _, qu := range req.Questions {
		line := "     (asks you: " + qu.Text
		if len(qu.Options) > 0 {
			labels := make([]string, len(qu.Options))
			for k, o := range qu.Options {
				labels[k] = o.Label
			}
			sep := " / "
			if qu.MultiSelect {
				sep = " + "
			}
			line += " [" + strings.Join(labels, sep) + "]"
		} else {
			line += " [free text]"
		}
		p.printf("%s)\n", line)
	}
}
