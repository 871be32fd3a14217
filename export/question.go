package export

import (
	"fmt"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
)

// QuestionDoc is the open ask_user question of a state document: what the
// agent asked, which the person must answer for the run to go on.
type QuestionDoc struct {
	RequestID string `json:"request_id"`
	// Index is the AskUserRequestEvent's position on the path.
	Index     int           `json:"index"`
	ActionID  string        `json:"action_id"`
	Questions []QuestionRow `json:"questions"`
}

// QuestionRow is one question; no options means a free-text answer.
type QuestionRow struct {
	ID          string      `json:"id"`
	Question    string      `json:"question"`
	Options     []OptionRow `json:"options"`
	MultiSelect bool        `json:"multi_select"`
}

// OptionRow is one option of a question.
type OptionRow struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// questionDoc is the document of an open question, nil for none. The
// decoder sanitised the text already; ids are sanitised here.
func questionDoc(q *reducer.Question) *QuestionDoc {
	if q == nil {
		return nil
	}
	r := q.Request
	doc := &QuestionDoc{RequestID: sanitize.Line(r.RequestID), Index: q.Index, ActionID: sanitize.Line(r.ActionID), Questions: []QuestionRow{}}
	for _, qu := range r.Questions {
		row := QuestionRow{ID: qu.ID, Question: qu.Text, MultiSelect: qu.MultiSelect, Options: []OptionRow{}}
		for _, o := range qu.Options {
			row.Options = append(row.Options, OptionRow{ID: o.ID, Label: o.Label, Description: o.Description})
		}
		doc.Questions = append(doc.Questions, row)
	}
	return doc
}

// questionText writes the open question's lines of the state text.
func questionText(b *strings.Builder, line func(key, f string, args ...any), q *QuestionDoc) {
	line("question", "the agent asks you (request %s)", q.RequestID)
	for _, qu := range q.Questions {
		fmt.Fprintf(b, "  ? %s\n", qu.Question)
		if len(qu.Options) == 0 {
			fmt.Fprintf(b, "      (free text)\n")
		}
		for _, o := range qu.Options {
			fmt.Fprintf(b, "      - %s\n", o.Label)
		}
	}
}
