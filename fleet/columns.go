package fleet

import (
	"cmp"
	"net/url"
	"strings"
	"time"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Column is a column of the fleet table, and a key to sort rows by.
type Column int

// The columns, in the order the table shows them.
const (
	ColTitle Column = iota
	ColSource
	ColStatus
	ColSteps
	ColCost
	ColTokens
	ColCalls
	ColPending
	ColErrors
	ColActivity
	ColIdle
	ColConn
	// ColRuntime is what a server with conversation runtimes says of the
	// runtime and the archive (model.Runtime); shown only where one does.
	ColRuntime
	numColumns
)

// Columns returns every column, in table order.
func Columns() []Column {
	out := make([]Column, numColumns)
	for i := range out {
		out[i] = Column(i)
	}
	return out
}

// Name is the column's heading.
func (c Column) Name() string {
	switch c {
	case ColTitle:
		return "TITLE"
	case ColSource:
		return "SOURCE"
	case ColStatus:
		return "STATUS"
	case ColSteps:
		return "STEPS"
	case ColCost:
		return "COST"
	case ColTokens:
		return "TOKENS"
	case ColCalls:
		return "CALLS"
	case ColPending:
		return "PEND"
	case ColErrors:
		return "ERR"
	case ColActivity:
		return "LAST"
	case ColIdle:
		return "IDLE"
	case ColConn:
		return "CONN"
	case ColRuntime:
		return "RUNTIME"
	}
	return "?"
}

// Numeric reports whether the column holds numbers (right-aligned).
func (c Column) Numeric() bool {
	switch c {
	case ColSteps, ColCost, ColTokens, ColCalls, ColPending, ColErrors, ColIdle:
		return true
	}
	return false
}

// Text is the cell of row r in the column at now, worded through format: a
// metric the conversation never reported reads "unknown".
func (c Column) Text(r Row, now time.Time) string {
	switch c {
	case ColTitle:
		if r.Title == "" {
			return sanitize.Line(r.Ref.ID)
		}
		return r.Title
	case ColSource:
		return SourceShort(r.Ref)
	case ColStatus:
		if r.Verdict.Status == "" && r.Loading {
			return "loading"
		}
		if r.Question != "" {
			// waiting_for_confirmation on a question: the person is
			// asked, not asked to approve.
			return "asks you"
		}
		// A status is the server's word: sanitised like any text from it.
		return sanitize.Line(r.Verdict.Short())
	case ColSteps:
		if r.Events == 0 {
			return format.Unknown
		}
		return format.Count(int64(r.Iteration)) + "/" + format.Count(int64(r.Steps))
	case ColCost:
		return format.Cost(r.Cost, r.CostKnown)
	case ColTokens:
		return format.Tokens(r.Tokens, r.MetricsReported)
	case ColCalls:
		return format.Int(r.LLMCalls, r.LLMCallsKnown)
	case ColPending:
		if r.Pending == 0 {
			return "-"
		}
		return format.Count(int64(r.Pending))
	case ColErrors:
		if r.Errors == 0 {
			return "-"
		}
		return format.Count(int64(r.Errors))
	case ColActivity:
		if r.LastActivity.IsZero() {
			return format.Unknown
		}
		t := r.LastActivity.UTC()
		if now.UTC().Format(time.DateOnly) == t.Format(time.DateOnly) {
			return t.Format(time.TimeOnly)
		}
		return t.Format("2006-01-02 15:04")
	case ColIdle:
		if r.Ended() {
			// Nothing more will come: how long ago it ended is noise
			// (an old recording's idle reads 262d08h33m).
			return "-"
		}
		d, ok := r.Idle(now)
		if !ok {
			return format.Unknown
		}
		if d < time.Second {
			// Under a second, or a clock ahead of this one: no time
			// worth a word has passed here.
			return "0s"
		}
		return format.Duration(d.Truncate(time.Second))
	case ColConn:
		return ConnText(r)
	case ColRuntime:
		if w := r.Runtime.Words(); w != "" {
			return sanitize.Line(w)
		}
		return "-"
	}
	return ""
}

// SourceShort is the source as the SOURCE column shows it: an
// agent-server's host:port (and path, if its URL has one), which is what
// tells two servers apart in a narrow column where the scheme would push
// the port out of sight; a local root's path and "cloud" as labelled.
func SourceShort(ref model.ConversationRef) string {
	if ref.Kind == model.SourceServer {
		if u, err := url.Parse(ref.Source); err == nil && u.Host != "" {
			return sanitize.Line(u.Host + strings.TrimRight(u.EscapedPath(), "/"))
		}
	}
	return SourceLabel(ref)
}

// SourceLabel is the source in full, as headings and lines name it: its
// label, else its kind.
func SourceLabel(ref model.ConversationRef) string {
	if s := sanitize.Line(ref.Source); s != "" {
		return s
	}
	return ref.Kind.String()
}

// ConnText is the connection state in a word or two: "live",
// "reconnect #3", "lost", "done", "paused" for a Cloud conversation
// whose sandbox sleeps; "-" when the source reports none.
func ConnText(r Row) string {
	switch {
	case r.Paused:
		return "paused"
	case !r.ConnKnown:
		return "-"
	case r.Conn.Phase == model.PhaseReconnecting:
		return "reconnect #" + format.Count(int64(r.Conn.Attempt))
	}
	return r.Conn.Phase.String()
}

// Compare orders two rows by the column, ascending; rows equal in it keep
// the order the fleet first saw them in.
func (c Column) Compare(a, b Row) int {
	var d int
	switch c {
	case ColTitle:
		d = strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title))
	case ColSource:
		d = strings.Compare(SourceShort(a.Ref), SourceShort(b.Ref))
	case ColStatus:
		d = cmp.Compare(statusRank(a), statusRank(b))
	case ColSteps:
		d = cmp.Compare(a.Steps, b.Steps)
	case ColCost:
		d = compareKnown(a.CostKnown, b.CostKnown, a.Cost, b.Cost)
	case ColTokens:
		d = compareKnown(a.MetricsReported, b.MetricsReported, a.Tokens, b.Tokens)
	case ColCalls:
		d = compareKnown(a.LLMCallsKnown, b.LLMCallsKnown, a.LLMCalls, b.LLMCalls)
	case ColPending:
		d = cmp.Compare(a.Pending, b.Pending)
	case ColErrors:
		d = cmp.Compare(a.Errors, b.Errors)
	case ColActivity:
		d = a.LastActivity.Compare(b.LastActivity)
	case ColIdle:
		// Longest idle first when ascending is the least recent activity.
		d = b.LastActivity.Compare(a.LastActivity)
	case ColConn:
		d = cmp.Compare(connRank(a), connRank(b))
	case ColRuntime:
		d = strings.Compare(a.Runtime.Words(), b.Runtime.Words())
	}
	if d != 0 {
		return d
	}
	return cmp.Compare(a.seq, b.seq)
}

// compareKnown orders unknown values before every known one.
func compareKnown[T cmp.Ordered](ak, bk bool, a, b T) int {
	switch {
	case ak != bk:
		if ak {
			return 1
		}
		return -1
	case !ak:
		return 0
	}
	return cmp.Compare(a, b)
}

// statusRank orders statuses by how much they ask of a person: waiting
// for a confirmation first, then the ends that went wrong, then running
// work, then the quiet ones.
func statusRank(r Row) int {
	switch r.Verdict.Status {
	case model.StatusWaitingForConfirmation:
		return 0
	case model.StatusError:
		return 1
	case model.StatusStuck:
		return 2
	case model.StatusRunning:
		return 3
	case model.StatusPaused:
		return 4
	case model.StatusIdle:
		return 5
	case model.StatusFinished:
		if !r.Verdict.Final() {
			return 6
		}
		return 7
	case "":
		return 9
	}
	return 8
}

// connRank orders connection states from the troubled to the quiet.
func connRank(r Row) int {
	if r.Paused {
		return 6
	}
	if !r.ConnKnown {
		return 7
	}
	switch r.Conn.Phase {
	case model.PhaseLost:
		return 0
	case model.PhaseReconnecting:
		return 1
	case model.PhaseConnecting:
		return 2
	case model.PhaseLive:
		return 3
	case model.PhaseDone:
		return 5
	}
	return 4
}
