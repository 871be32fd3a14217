package gen

import (
	"math/rand/v2"
	"strings"

	"ohwatch/model"
)

// The texts below are what the simulated user says and what the simulated
// agent thinks and replies. They are combined at random so that thousands
// of turns do not read identically.

var userRequests = []string{
	"The balance endpoint returns the wrong total for postings made exactly at the cutoff time. Can you find the bug in ledgerd and fix it? Please add a regression test.",
	"GET /v1/balances?at=... ignores the timezone in the query and we get off-by-one-day totals for customers in UTC+10. Please investigate and fix.",
	"CI is red on main: TestBalanceCutoff fails intermittently. Find out why and make it deterministic.",
	"Please add validation so that journal entries with a single posting are rejected with a clear error, and cover it with tests.",
	"Our nightly reconciliation shows fees counted twice for some accounts. Can you dig into internal/ledger and tell me what's going on, then fix it?",
	"Refactor the balance handler so errors from the encoder are reported instead of swallowed. Keep the public API unchanged.",
}

var userFollowUps = []string{
	"Thanks! Can you also make sure `go vet` and the linter are clean?",
	"Looks good. One more thing: the handler should return 422 for unknown accounts, not 500.",
	"Could you double-check the edge case where the cutoff is in a different timezone than the postings?",
	"Great. Please also update the README section about the balance endpoint.",
	"Before you finish, run the full test suite once more with -race.",
	"Actually, keep the old error message text, other services match on it.",
}

var userNudges = []string{
	"Also, please keep the changes minimal, this goes into a patch release.",
	"FYI the staging database is read-only today, don't run migrations.",
	"No need to touch cmd/ledgerd, it's being rewritten.",
}

var reasoningSentences = []string{
	"The failing assertion says cash is 2299 instead of 1300, so a posting after the cutoff is being counted.",
	"Balance skips postings with p.At.After(cutoff), which looks right, so the problem may be where the cutoff comes from.",
	"The handler parses the at parameter with time.Parse and RFC3339, which keeps the offset, but the journal stamps postings with time.Now in local time.",
	"Comparing times with different locations is fine in Go as long as both carry their offsets, so the zone itself is not the bug.",
	"I should check whether the test data uses the same instant for the cutoff and the posting, since the boundary is where it breaks.",
	"Let me be careful not to change the public signature of Balance; other packages call it.",
	"Running the whole suite is cheap here, so I will run it after each change.",
	"The simplest fix is to normalise both sides to UTC before comparing, and add a test at the exact boundary.",
	"There might be a second place that filters by time in the store package; I should grep for it before concluding.",
	"The previous edit fixed the boundary case, but the verbose run shows the timezone case still needs a test.",
	"I will update the task list so the user can follow the progress.",
	"The diff is small and focused, which is what the user asked for.",
}

var thoughts = []string{
	"Let me look at the repository layout first.",
	"Now let me run the tests to see the current state.",
	"Let me check how the cutoff is applied.",
	"I'll look at the handler that parses the query parameter.",
	"Let me apply the fix.",
	"Let me verify the change with the tests.",
	"Let me see the recent history of this file.",
	"I'll update the task list.",
	"",
	"",
	"",
}

var agentReplies = []string{
	"I found and fixed the issue. `Balance` compared the cutoff against postings stamped in local time, so a posting made exactly at the cutoff could fall on either side depending on the server's zone. Both sides are now normalised to UTC, and `TestBalanceCutoff` covers the exact boundary. `go test ./...` passes.",
	"Done. The handler now reports encoder errors with a 500 instead of dropping them, and unknown accounts return 422. I added table tests for both paths; the full suite and `go vet` are clean.",
	"The flaky test depended on `time.Now()`. I injected the clock into `Journal` so the test uses a fixed instant, and ran it 200 times with `-count=200` without a failure.",
	"I reviewed the changes again: the fix is limited to `internal/ledger/balance.go` and its test, the public API is unchanged, and all packages pass with `-race`.",
}

var taskPool = []model.Task{
	{Title: "Reproduce the failing balance at the cutoff", Notes: "Run go test ./internal/ledger/... and capture the failure"},
	{Title: "Locate where the cutoff is compared", Notes: "Read Balance and the balance handler"},
	{Title: "Fix the boundary comparison", Notes: "Normalise times to UTC; keep Balance's signature"},
	{Title: "Add a regression test at the exact cutoff", Notes: "Posting at the cutoff instant must be included"},
	{Title: "Run the full suite with -race", Notes: "go test -race ./..."},
	{Title: "Review the diff", Notes: "git diff; keep the change minimal"},
	{Title: "Report encoder errors in the handler", Notes: "Return 500 instead of ignoring the error"},
	{Title: "Update the README", Notes: "Document the at= parameter and its timezone handling"},
}

// pickString returns a random element of pool.
func pickString(rng *rand.Rand, pool []string) string { return pool[rng.IntN(len(pool))] }

// reasoningText is a short paragraph of extended thinking, or "" a third
// of the time (not every response thinks aloud).
func reasoningText(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return ""
	}
	n := 2 + rng.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pickString(rng, reasoningSentences)
	}
	return strings.Join(parts, " ")
}

// planFor draws a plan of n distinct tasks, the first in progress.
func planFor(rng *rand.Rand, n int) []model.Task {
	perm := rng.Perm(len(taskPool))
	tasks := make([]model.Task, n)
	for i := range tasks {
		tasks[i] = taskPool[perm[i]]
		tasks[i].Status = "todo"
	}
	tasks[0].Status = "in_progress"
	return tasks
}

// forkRequests are what a user says first in a fork: the same task, tried
// another way from an earlier point of the conversation.
var forkRequests = []string{
	"Let's try a different approach from here: leave the store package alone and fix it in the handler instead.",
	"Go back to this point and write the regression test first, before touching any code.",
	"From here, try the smallest possible fix and skip the refactoring.",
	"Let's branch off here and see whether normalising the timestamps at ingestion is cleaner.",
}

// forkTitles are the titles a user gives the forks they make.
var forkTitles = []string{
	"Fix in the handler instead",
	"Test first",
	"Smallest possible fix",
	"Normalise at ingestion",
}
