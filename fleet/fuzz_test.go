package fleet

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"ohwatch/model"
)

// FuzzRows folds listings and events whose text comes from anywhere (a
// server's titles, statuses, ids, connection reasons) and lists them every
// way: nothing panics, no conversation is lost, and every cell a table or
// a line shows is one line of printable text.
func FuzzRows(f *testing.F) {
	f.Add("Fix the bug", "running", "a", "", "refused", uint8(0))
	f.Add("\x1b]0;evil\x07title\nsecond", "finished", "b", "b", "\u202e", uint8(7))
	f.Add("", "waiting_for_confirmation", "", "x", "", uint8(255))
	f.Fuzz(func(t *testing.T, title, status, id, parent, reason string, mode uint8) {
		fl := New()
		refs := []model.ConversationRef{
			{Source: "s\x1b[2J" + reason, Kind: model.SourceKind(mode % 4), ID: id + "1"},
			{Source: "s", Kind: model.SourceServer, ID: parent + "2"},
		}
		for i, ref := range refs {
			// Each names the other as parent (a cycle) or the fuzzed one.
			up := parent
			if mode%2 == 1 {
				up = refs[1-i].ID
			}
			ev := model.Event{Kind: "ConversationStateUpdateEvent", ID: id, Source: "environment", Time: time.Unix(int64(mode), 0),
				Body: &model.StateUpdate{Key: "execution_status", ExecutionStatus: status}}
			user := model.Event{Kind: "MessageEvent", ID: title, Source: "user", Summary: title, Body: &model.Message{Role: "user"}}
			fl.Apply([]model.FleetUpdate{
				{Ref: ref, Meta: &model.ConversationMeta{Title: title, Status: status, ParentID: up}},
				{Ref: ref, Batch: model.Batch{Events: []model.Event{user, ev}, Warnings: []string{reason},
					Conn: &model.ConnState{Phase: model.Phase(mode % 6), Reason: reason, Attempt: int(mode)}}},
				{Ref: model.ConversationRef{Source: ref.Source, Kind: ref.Kind}, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Reason: reason}}},
			})
		}
		for _, q := range []Query{{}, {Sort: Column(int(mode) % int(numColumns)), Desc: true, BySource: true},
			{Text: title, Status: status}, {Status: StatusAttention}} {
			rows := Flatten(fl.Rows(q))
			if q.Text == "" && q.Status == "" && len(rows) != fl.Len() {
				t.Fatalf("%d rows of %d conversations", len(rows), fl.Len())
			}
			for _, r := range rows {
				for _, c := range Columns() {
					if s := c.Text(r, time.Unix(1e9, 0)); !printableLine(s) {
						t.Fatalf("%s cell %q is not one printable line", c.Name(), s)
					}
				}
				_ = r.Outcome()
			}
		}
		for _, s := range fl.Sources() {
			if !printableLine(s.Label()) || !printableLine(s.Conn.Reason) || !printableLine(s.LastWarning) {
				t.Fatalf("source %+v", s)
			}
		}
	})
}

// printableLine reports whether s holds no control character and no line
// break: what a terminal may be given inside a line.
func printableLine(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	})
}
