package gen

import (
	"math/rand/v2"
	"strings"
)

// repo is the small Go service the generated agent works on. Its files
// hold real text so that views, edits and diffs agree with each other;
// edits toggle between two known versions of a snippet, so the files never
// grow however long the conversation runs.
type repo struct {
	module string
	files  []*repoFile
}

type repoFile struct {
	path    string
	content string
	edits   []edit
}

// edit is a pair of snippets; whichever one the file holds can be replaced
// by the other.
type edit struct {
	a, b    string
	summary string
}

func newRepo() *repo {
	r := &repo{module: "github.com/acme/ledgerd"}
	for _, f := range repoTemplates {
		r.files = append(r.files, &repoFile{path: f.path, content: f.content, edits: f.edits})
	}
	return r
}

// pick returns a random file.
func (r *repo) pick(rng *rand.Rand) *repoFile { return r.files[rng.IntN(len(r.files))] }

// tree lists the repository checked out at root as file_editor's
// directory view does: every directory and file up to two levels deep, one
// absolute path a line.
func (r *repo) tree(root string) string {
	root += "/"
	seen := map[string]bool{}
	var lines []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			lines = append(lines, root+p)
		}
	}
	for _, f := range r.files {
		parts := strings.Split(f.path, "/")
		add(parts[0] + "/")
		if len(parts) > 1 {
			add(parts[0] + "/" + parts[1] + map[bool]string{true: "/", false: ""}[len(parts) > 2])
		}
	}
	for _, p := range []string{"Makefile", "README.md", "go.mod", "go.sum", "migrations/"} {
		add(p)
	}
	return root + "\n" + strings.Join(sortedCopy(lines), "\n")
}

// nextEdit returns the old and new text of an edit that applies to f now:
// b back to a when the file holds b (b may contain a), else a to b.
func (f *repoFile) nextEdit(rng *rand.Rand) (oldStr, newStr, summary string) {
	e := f.edits[rng.IntN(len(f.edits))]
	if strings.Contains(f.content, e.b) {
		return e.b, e.a, e.summary
	}
	return e.a, e.b, e.summary
}

// repoTemplate is a file of the simulated repository as first checked out.
type repoTemplate struct {
	path    string
	content string
	edits   []edit
}

var repoTemplates = []repoTemplate{
	{
		path: "internal/ledger/balance.go",
		content: `package ledger

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// ErrUnknownAccount is returned when a posting names an account that was
// never opened.
var ErrUnknownAccount = errors.New("ledger: unknown account")

// Posting is one line of a journal entry.
type Posting struct {
	Account string
	Amount  int64 // minor units (cents)
	At      time.Time
}

// Balance sums the postings of each account up to and including cutoff.
func Balance(postings []Posting, cutoff time.Time) (map[string]int64, error) {
	out := make(map[string]int64)
	for _, p := range postings {
		if p.Account == "" {
			return nil, fmt.Errorf("%w: empty name", ErrUnknownAccount)
		}
		if p.At.After(cutoff) {
			continue
		}
		out[p.Account] += p.Amount
	}
	return out, nil
}

// Accounts returns the account names in a stable order.
func Accounts(balances map[string]int64) []string {
	names := make([]string, 0, len(balances))
	for name := range balances {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
`,
		edits: []edit{
			{a: "\t\tif p.At.After(cutoff) {\n\t\t\tcontinue\n\t\t}", b: "\t\tif !p.At.Before(cutoff.Add(time.Nanosecond)) {\n\t\t\tcontinue\n\t\t}", summary: "Make the cutoff comparison inclusive"},
			{a: "\tout := make(map[string]int64)", b: "\tout := make(map[string]int64, len(postings)/4+1)", summary: "Pre-size the balance map"},
		},
	},
	{
		path: "internal/ledger/journal.go",
		content: `package ledger

import (
	"fmt"
	"time"
)

// Entry is a balanced set of postings recorded at one instant.
type Entry struct {
	ID       string
	Memo     string
	Postings []Posting
}

// Validate checks that an entry balances to zero and is not empty.
func (e Entry) Validate() error {
	if len(e.Postings) < 2 {
		return fmt.Errorf("entry %s: need at least two postings", e.ID)
	}
	var sum int64
	for _, p := range e.Postings {
		sum += p.Amount
	}
	if sum != 0 {
		return fmt.Errorf("entry %s: unbalanced by %d", e.ID, sum)
	}
	return nil
}

// Journal is an append-only list of entries.
type Journal struct {
	entries []Entry
	now     func() time.Time
}

// Record validates e, stamps its postings and appends it.
func (j *Journal) Record(e Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	at := j.now()
	for i := range e.Postings {
		e.Postings[i].At = at
	}
	j.entries = append(j.entries, e)
	return nil
}
`,
		edits: []edit{
			{a: "\tat := j.now()\n", b: "\tat := j.now().UTC()\n", summary: "Stamp postings in UTC"},
			{a: "\t\treturn fmt.Errorf(\"entry %s: unbalanced by %d\", e.ID, sum)", b: "\t\treturn fmt.Errorf(\"entry %s: unbalanced by %d minor units\", e.ID, sum)", summary: "Clarify the unbalanced entry error"},
		},
	},
	{
		path: "internal/api/handlers.go",
		content: `package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/acme/ledgerd/internal/ledger"
)

// Server serves the ledger over HTTP.
type Server struct {
	Journal *ledger.Journal
	Now     func() time.Time
}

// handleBalance answers GET /v1/balances?at=RFC3339.
func (s *Server) handleBalance(w http.ResponseWriter, r *http.Request) {
	cutoff := s.Now()
	if v := r.URL.Query().Get("at"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			http.Error(w, "bad at: "+err.Error(), http.StatusBadRequest)
			return
		}
		cutoff = t
	}
	balances, err := ledger.Balance(s.Journal.Postings(), cutoff)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(balances)
}
`,
		edits: []edit{
			{a: "\t\tcutoff = t\n", b: "\t\tcutoff = t.UTC()\n", summary: "Normalise the cutoff to UTC"},
			{a: "\t_ = json.NewEncoder(w).Encode(balances)", b: "\tif err := json.NewEncoder(w).Encode(balances); err != nil {\n\t\thttp.Error(w, err.Error(), http.StatusInternalServerError)\n\t}", summary: "Report encoding errors"},
		},
	},
	{
		path: "internal/ledger/balance_test.go",
		content: `package ledger

import (
	"testing"
	"time"
)

func TestBalanceCutoff(t *testing.T) {
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	postings := []Posting{
		{Account: "cash", Amount: 1500, At: day.Add(-time.Hour)},
		{Account: "cash", Amount: -200, At: day},
		{Account: "fees", Amount: 200, At: day},
		{Account: "cash", Amount: 999, At: day.Add(time.Second)},
	}
	got, err := Balance(postings, day)
	if err != nil {
		t.Fatal(err)
	}
	if got["cash"] != 1300 {
		t.Errorf("cash = %d, want 1300", got["cash"])
	}
	if got["fees"] != 200 {
		t.Errorf("fees = %d, want 200", got["fees"])
	}
}
`,
		edits: []edit{
			{a: "\tif got[\"fees\"] != 200 {", b: "\tif len(got) != 2 {\n\t\tt.Errorf(\"accounts = %v, want cash and fees\", Accounts(got))\n\t}\n\tif got[\"fees\"] != 200 {", summary: "Also check the set of accounts"},
		},
	},
	{
		path: "cmd/ledgerd/main.go",
		content: `package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/acme/ledgerd/internal/api"
	"github.com/acme/ledgerd/internal/ledger"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	flag.Parse()
	srv := &api.Server{Journal: ledger.NewJournal(time.Now), Now: time.Now}
	log.Printf("ledgerd listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, srv.Routes()))
}
`,
		edits: []edit{
			{a: "\tlog.Fatal(http.ListenAndServe(*addr, srv.Routes()))", b: "\ths := &http.Server{Addr: *addr, Handler: srv.Routes(), ReadHeaderTimeout: 5 * time.Second}\n\tlog.Fatal(hs.ListenAndServe())", summary: "Set a read header timeout"},
		},
	},
}
